"""treadle.sim.model -- the names of Warp's ``warp.sim.model`` module (the model, its builder,
states and controls, geometry sources, joint axes and the integer codes), re-exported from
the files that hold them."""

from .builder import ModelBuilder as ModelBuilder
from .constants import GEO_BOX as GEO_BOX
from .constants import GEO_CAPSULE as GEO_CAPSULE
from .constants import GEO_CONE as GEO_CONE
from .constants import GEO_CYLINDER as GEO_CYLINDER
from .constants import GEO_MESH as GEO_MESH
from .constants import GEO_NONE as GEO_NONE
from .constants import GEO_PLANE as GEO_PLANE
from .constants import GEO_SDF as GEO_SDF
from .constants import GEO_SPHERE as GEO_SPHERE
from .constants import JOINT_BALL as JOINT_BALL
from .constants import JOINT_COMPOUND as JOINT_COMPOUND
from .constants import JOINT_D6 as JOINT_D6
from .constants import JOINT_DISTANCE as JOINT_DISTANCE
from .constants import JOINT_FIXED as JOINT_FIXED
from .constants import JOINT_FREE as JOINT_FREE
from .constants import JOINT_MODE_FORCE as JOINT_MODE_FORCE
from .constants import JOINT_MODE_TARGET_POSITION as JOINT_MODE_TARGET_POSITION
from .constants import JOINT_MODE_TARGET_VELOCITY as JOINT_MODE_TARGET_VELOCITY
from .constants import JOINT_PRISMATIC as JOINT_PRISMATIC
from .constants import JOINT_REVOLUTE as JOINT_REVOLUTE
from .constants import JOINT_UNIVERSAL as JOINT_UNIVERSAL
from .constants import PARTICLE_FLAG_ACTIVE as PARTICLE_FLAG_ACTIVE
from .constants import flag_to_int as flag_to_int
from .geometry import SDF as SDF
from .graph_coloring import ColoringAlgorithm as ColoringAlgorithm
from .graph_coloring import color_trimesh as color_trimesh
from .graph_coloring import \
    combine_independent_particle_coloring as combine_independent_particle_coloring
from .geometry import Mesh as Mesh
from .geometry import compute_shape_mass as compute_shape_mass
from .inertia import compute_box_inertia as compute_box_inertia
from .inertia import compute_capsule_inertia as compute_capsule_inertia
from .inertia import compute_cone_inertia as compute_cone_inertia
from .inertia import compute_cylinder_inertia as compute_cylinder_inertia
from .inertia import compute_mesh_inertia as compute_mesh_inertia
from .inertia import compute_sphere_inertia as compute_sphere_inertia
from .inertia import transform_inertia as transform_inertia
from .joint_axis import JointAxis as JointAxis
from .model_core import Model as Model
from .model_core import ModelShapeGeometry as ModelShapeGeometry
from .model_core import ModelShapeMaterials as ModelShapeMaterials
from .state import Control as Control
from .state import State as State

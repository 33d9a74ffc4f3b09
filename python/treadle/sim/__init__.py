"""treadle.sim: warp.sim (Warp 1.9.1's simulation library) on treadle kernels.

Import it explicitly (``import treadle.sim``), as with Warp. ``ModelBuilder`` builds a scene in
Python lists and ``finalize()`` makes a ``Model`` of device arrays; ``Model.state()`` and
``Model.control()`` make the time-varying data that integrators advance. See
docs/architecture.md (treadle.sim) for the files and docs/differences.md for what is missing.
"""

from .articulation import eval_fk as eval_fk
from .articulation import eval_ik as eval_ik
from .builder import ModelBuilder as ModelBuilder
from .collide import collide as collide
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
from .geometry import SDF as SDF
from .import_mjcf import parse_mjcf as parse_mjcf
from .import_snu import parse_snu as parse_snu
from .import_urdf import parse_urdf as parse_urdf
from .import_usd import parse_usd as parse_usd
from .import_usd import resolve_usd_from_url as resolve_usd_from_url
from .geometry import Mesh as Mesh
from .inertia import transform_inertia as transform_inertia
from .integrator import Integrator as Integrator
from .integrator import integrate_bodies as integrate_bodies
from .integrator import integrate_particles as integrate_particles
from .integrator_euler import SemiImplicitIntegrator as SemiImplicitIntegrator
from .integrator_featherstone import FeatherstoneIntegrator as FeatherstoneIntegrator
from .integrator_vbd import VBDIntegrator as VBDIntegrator
from .integrator_xpbd import XPBDIntegrator as XPBDIntegrator
from .joint_axis import JointAxis as JointAxis
from .model_core import Model as Model
from .model_core import ModelShapeGeometry as ModelShapeGeometry
from .model_core import ModelShapeMaterials as ModelShapeMaterials
from .state import Control as Control
from .state import State as State
from .utils import load_mesh as load_mesh
from .utils import quat_from_euler as quat_from_euler
from .utils import quat_to_euler as quat_to_euler
from .utils import velocity_at_point as velocity_at_point

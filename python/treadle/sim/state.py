"""treadle.sim.state -- the time-varying data of a model: ``State`` (positions, velocities and
forces of particles and bodies, joint coordinates) and ``Control`` (joint actions and element
activations). Both are made by ``Model.state()`` / ``Model.control()``."""

import warnings


class State:
    """Time-varying state of a model: ``particle_q``, ``particle_qd``, ``particle_f`` (vec3 per
    particle), ``body_q`` (transform per body), ``body_qd`` and ``body_f`` (spatial vectors per
    body, angular part first; ``body_f`` is a world-frame wrench about the centre of mass),
    ``joint_q`` and ``joint_qd`` (generalised coordinates). Missing parts are None."""

    def __init__(self):
        self.particle_q = None
        self.particle_qd = None
        self.particle_f = None
        self.body_q = None
        self.body_qd = None
        self.body_f = None
        self.joint_q = None
        self.joint_qd = None

    def clear_forces(self) -> None:
        """Sets the particle and body forces to zero."""
        if self.particle_count:
            self.particle_f.zero_()
        if self.body_count:
            self.body_f.zero_()

    @property
    def requires_grad(self) -> bool:
        """Whether the state's arrays record gradients."""
        if self.particle_q:
            return self.particle_q.requires_grad
        if self.body_q:
            return self.body_q.requires_grad
        return False

    @property
    def body_count(self) -> int:
        """Number of bodies in the state."""
        return 0 if self.body_q is None else len(self.body_q)

    @property
    def particle_count(self) -> int:
        """Number of particles in the state."""
        return 0 if self.particle_q is None else len(self.particle_q)

    @property
    def joint_coord_count(self) -> int:
        """Number of generalised position coordinates in the state."""
        return 0 if self.joint_q is None else len(self.joint_q)

    @property
    def joint_dof_count(self) -> int:
        """Number of generalised velocity coordinates in the state."""
        return 0 if self.joint_qd is None else len(self.joint_qd)


class Control:
    """Time-varying control inputs: ``joint_act`` (one per joint axis), ``tri_activations``,
    ``tet_activations`` and ``muscle_activations``; None where the model has none."""

    def __init__(self, model=None):
        if model:
            warnings.warn("Passing arguments to Control's __init__ is deprecated and will be "
                          "disallowed in a future version. Use Control() without arguments "
                          "instead.", DeprecationWarning, stacklevel=2)
        self.joint_act = None
        self.tri_activations = None
        self.tet_activations = None
        self.muscle_activations = None

    def clear(self) -> None:
        """Sets every control input to zero."""
        for arr in (self.joint_act, self.tri_activations, self.tet_activations,
                    self.muscle_activations):
            if arr is not None:
                arr.zero_()

    def reset(self) -> None:
        """Deprecated name of ``clear()``."""
        warnings.warn("Control.reset() is deprecated and will be removed in a future version. "
                      "Use Control.clear() instead.", DeprecationWarning, stacklevel=2)
        self.clear()

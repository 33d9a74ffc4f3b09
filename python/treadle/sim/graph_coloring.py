"""treadle.sim.graph_coloring -- particle colour groups: sets of particles no element connects,
which a Gauss-Seidel solver such as Warp's VBD updates together (``warp.sim.graph_coloring``).

Colouring runs on the host in Python: greedy colouring in the order of decreasing degree
(``GREEDY``) or of a maximum cardinality search (``MCS``, Pereira and Palsberg 2005, fewer
colours on meshes), then optional balancing, which moves particles from the largest colour to
smaller ones while the colouring stays valid. The colours are valid, though not necessarily
the ones Warp's native colouring picks.
"""

import warnings
from enum import Enum

import numpy as np

import treadle as wp


class ColoringAlgorithm(Enum):
    """Order in which the greedy colouring visits the nodes."""

    MCS = 0
    GREEDY = 1


@wp.kernel
def validate_graph_coloring(edge_indices: wp.array(dtype=int, ndim=2),
                            colors: wp.array(dtype=int)):
    """Reports (wp.expect_neq) every edge whose two nodes share a colour."""
    e = wp.tid()
    wp.expect_neq(colors[edge_indices[e, 0]], colors[edge_indices[e, 1]])


def construct_trimesh_graph_edges(trimesh_edge_indices, return_wp_array=False):
    """Graph edges of a triangle mesh's bending edges (rows o1, o2, v1, v2): every v1-v2 edge,
    then o1-o2 for every edge with two triangles."""
    edges = np.asarray(trimesh_edge_indices.numpy() if hasattr(trimesh_edge_indices, "numpy")
                       else trimesh_edge_indices, dtype=np.int32).reshape(-1, 4)
    inner = edges[(edges[:, 0] != -1) & (edges[:, 1] != -1)]
    graph = np.concatenate((edges[:, 2:4], inner[:, 0:2])).astype(np.int32)
    return wp.array(graph, dtype=int, device="cpu") if return_wp_array else graph


def convert_to_color_groups(num_colors, particle_colors, return_wp_array=False, device="cpu"):
    """The index arrays of the nodes of each colour, colour 0 first."""
    colors = np.asarray(particle_colors.numpy() if hasattr(particle_colors, "numpy")
                        else particle_colors)
    groups = [np.nonzero(colors == c)[0].astype(np.int32) for c in range(num_colors)]
    if return_wp_array:
        return [wp.array(g, dtype=int, device=device) for g in groups]
    return groups


def _neighbours(num_nodes, edges):
    adjacent = [set() for _ in range(num_nodes)]
    for a, b in edges:
        if a != b:
            adjacent[a].add(b)
            adjacent[b].add(a)
    return adjacent


def _mcs_order(adjacent):
    """Maximum cardinality search: repeatedly the node with the most visited neighbours."""
    n = len(adjacent)
    weight = [0] * n
    visited = [False] * n
    buckets = [set(range(n))]
    order, top = [], 0
    while len(order) < n:
        while top >= 0 and not buckets[top]:
            top -= 1
        node = min(buckets[top])
        buckets[top].discard(node)
        visited[node] = True
        order.append(node)
        for m in adjacent[node]:
            if not visited[m]:
                buckets[weight[m]].discard(m)
                weight[m] += 1
                if weight[m] == len(buckets):
                    buckets.append(set())
                buckets[weight[m]].add(m)
                top = max(top, weight[m])
    return order


def _greedy(adjacent, order):
    colors = np.full(len(adjacent), -1, dtype=np.int32)
    for node in order:
        used = {colors[m] for m in adjacent[node]}
        c = 0
        while c in used:
            c += 1
        colors[node] = c
    return colors


def _balance(adjacent, colors, num_colors, target_ratio):
    """Moves nodes of the largest colour into the smallest colour that admits them, pass by
    pass, until the max/min size ratio reaches `target_ratio` or no node can move; returns the
    final ratio."""
    sizes = np.bincount(colors, minlength=num_colors)
    while sizes.max() / max(sizes.min(), 1) > target_ratio:
        largest = int(np.argmax(sizes))
        moved = 0
        for node in np.nonzero(colors == largest)[0]:
            for target in np.argsort(sizes):
                if sizes[target] + 1 >= sizes[largest]:
                    break
                if all(colors[m] != target for m in adjacent[node]):
                    colors[node] = target
                    sizes[largest] -= 1
                    sizes[target] += 1
                    moved += 1
                    break
        if moved == 0:
            break
    return sizes.max() / max(sizes.min(), 1)


def color_graph(num_nodes, graph_edge_indices, balance_colors=True,
                target_max_min_color_ratio=1.1, algorithm=ColoringAlgorithm.MCS):
    """Colours the graph of `num_nodes` nodes and edges `graph_edge_indices` (n x 2); returns
    the colour groups (index arrays)."""
    if num_nodes == 0:
        return []
    edges = np.asarray(graph_edge_indices.numpy() if hasattr(graph_edge_indices, "numpy")
                       else graph_edge_indices)
    if edges.ndim != 2:
        raise ValueError(f"color_graph(): graph_edge_indices must be 2-dimensional (it has "
                         f"{edges.ndim} dimensions)")
    if not isinstance(algorithm, ColoringAlgorithm):
        raise ValueError(f"color_graph(): algorithm must be a ColoringAlgorithm ({algorithm!r})")
    adjacent = _neighbours(num_nodes, edges.tolist())
    if algorithm == ColoringAlgorithm.MCS:
        order = _mcs_order(adjacent)
    else:
        order = sorted(range(num_nodes), key=lambda v: -len(adjacent[v]))
    colors = _greedy(adjacent, order)
    num_colors = int(colors.max()) + 1
    if balance_colors:
        ratio = _balance(adjacent, colors, num_colors, target_max_min_color_ratio)
        if ratio > target_max_min_color_ratio:
            warnings.warn(f"The graph is not optimizable anymore, terminated with a max/min "
                          f"ratio: {ratio} without reaching the target ratio: "
                          f"{target_max_min_color_ratio}", stacklevel=2)
    return convert_to_color_groups(num_colors, colors)


def color_trimesh(num_nodes, trimesh_edge_indices, include_bending_energy, balance_colors=True,
                  target_max_min_color_ratio=1.1, algorithm=ColoringAlgorithm.MCS):
    """Colours the particles of a triangle mesh given its bending edges (rows o1, o2, v1, v2),
    with the o1-o2 links too when `include_bending_energy`."""
    if num_nodes == 0:
        return []
    edges = np.asarray(trimesh_edge_indices).reshape(-1, 4)
    if edges.shape[0] == 0:
        return [np.arange(num_nodes, dtype=np.int32)]
    graph = construct_trimesh_graph_edges(edges) if include_bending_energy else edges[:, 2:]
    return color_graph(num_nodes, graph, balance_colors, target_max_min_color_ratio, algorithm)


def combine_independent_particle_coloring(color_groups_1, color_groups_2):
    """Merges the colour groups (lists of index arrays) of two unconnected particle sets into
    max(len) groups, pairing the smallest groups of the longer list with the largest of the
    other so that the merged groups stay balanced."""
    if len(color_groups_1) == 0:
        return color_groups_2
    if len(color_groups_2) == 0:
        return color_groups_1
    if len(color_groups_1) < len(color_groups_2):
        color_groups_1, color_groups_2 = color_groups_2, color_groups_1
    ascending = sorted(color_groups_1, key=len)
    descending = sorted(color_groups_2, key=lambda group: -len(group))
    combined = []
    for i, group in enumerate(ascending):
        combined.append(np.concatenate([group, descending[i]]) if i < len(descending) else group)
    return combined

"""treadle._src.utils.MeshAdjacency (Warp's private mesh edge helper)."""

import treadle as wp


def test_edges_and_faces_of_two_triangles():
    adj = wp._src.utils.MeshAdjacency(((0, 3, 1), (0, 2, 3)), 2)
    edges = {k: (e.v0, e.v1, e.o0, e.o1, e.f0, e.f1) for k, e in adj.edges.items()}
    assert edges == {
        (0, 3): (0, 3, 1, 2, 0, 1),
        (1, 3): (3, 1, 0, -1, 0, -1),
        (0, 1): (1, 0, 3, -1, 0, -1),
        (0, 2): (0, 2, 3, -1, 1, -1),
        (2, 3): (2, 3, 0, -1, 1, -1),
    }


def test_an_edge_of_three_faces_is_reported(capsys):
    adj = wp._src.utils.MeshAdjacency(((0, 3, 1), (0, 2, 3), (3, 0, 1)), 3)
    assert capsys.readouterr().out == "Detected non-manifold edge\n"
    assert (adj.edges[(0, 3)].f0, adj.edges[(0, 3)].f1) == (0, 1)
    assert (adj.edges[(0, 1)].f1, adj.edges[(0, 1)].o1) == (2, 3)

// tests/cpp/native/adjoint_check.h -- finite-difference checks of native adjoints with results
//
// check_results_adjoint(f, adj_f, inputs...): f(inputs...) returns a std::tuple of results;
// adj_f is called the way generated code calls the adjoint of a several-result builtin,
// adj_f(inputs..., results..., adj_inputs&..., adj_results...), with random result adjoints w,
// and every input adjoint is compared with the central difference of sum_k dot(w_k, result_k).
// check_adjoint does the same for one result and the single-result convention
// adj_f(inputs..., adj_inputs&..., adj_ret). Works in double; int32 arguments get no gradient.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../../../native/treadle/quat.h"

namespace adjoint_check {

/// Flat<A>: the doubles of A (none for integer arguments).
template <typename A>
struct Flat {
    static constexpr int n = 0;
    static double* p(A&) { return nullptr; }
};
template <>
struct Flat<double> {
    static constexpr int n = 1;
    static double* p(double& x) { return &x; }
};
template <int N>
struct Flat<wp::vec_t<N, double>> {
    static constexpr int n = N;
    static double* p(wp::vec_t<N, double>& x) { return x.c; }
};
template <int R, int C>
struct Flat<wp::mat_t<R, C, double>> {
    static constexpr int n = R * C;
    static double* p(wp::mat_t<R, C, double>& x) { return &x.m[0][0]; }
};
template <>
struct Flat<wp::quat_t<double>> {
    static constexpr int n = 4;
    static double* p(wp::quat_t<double>& x) { return x.c; }
};
template <>
struct Flat<wp::transform_t<double>> {
    static constexpr int n = 7;
    static double* p(wp::transform_t<double>& x) {
        static_assert(sizeof(wp::transform_t<double>) == 7 * sizeof(double),
                      "transform_t must be packed");
        return x.p.c;
    }
};

inline std::mt19937& rng() {
    static std::mt19937 r(97531);
    return r;
}
inline double urand(double lo = -1.0, double hi = 1.0) {
    return std::uniform_real_distribution<double>(lo, hi)(rng());
}
template <typename A>
A rand_like() {
    A x{};
    for (int k = 0; k < Flat<A>::n; ++k) Flat<A>::p(x)[k] = urand();
    return x;
}
template <typename A>
double flat_dot(A a, A b) {
    double s = 0.0;
    for (int k = 0; k < Flat<A>::n; ++k) s += Flat<A>::p(a)[k] * Flat<A>::p(b)[k];
    return s;
}
template <typename... Out>
double weighted(const std::tuple<Out...>& w, const std::tuple<Out...>& out) {
    return std::apply(
        [&](const auto&... ws) {
            return std::apply([&](const auto&... os) { return (0.0 + ... + flat_dot(ws, os)); },
                              out);
        },
        w);
}

/// The shared checker: f(inputs...) returns a tuple of results; run_adjoint(results, grads,
/// w) calls the adjoint under test with the input adjoints `grads` (a tuple of references).
template <typename F, typename R, typename... In>
void check_core(F f, R run_adjoint, double tol, In... in) {
    using Out = decltype(f(in...));
    Out w;
    std::apply([](auto&... ws) { ((ws = rand_like<std::decay_t<decltype(ws)>>()), ...); }, w);
    const Out results = f(in...);
    std::tuple<In...> grads;
    auto seed = [](auto& x) {
        using A = std::remove_reference_t<decltype(x)>;
        x = A{};
        for (int k = 0; k < Flat<A>::n; ++k) Flat<A>::p(x)[k] = 0.25;
    };
    std::apply([&](auto&... gs) { (seed(gs), ...); }, grads);
    run_adjoint(results, grads, w);
    const std::tuple<In...> x0(in...);
    auto check_input = [&]<size_t I>(std::integral_constant<size_t, I>) {
        using A = std::tuple_element_t<I, std::tuple<In...>>;
        for (int k = 0; k < Flat<A>::n; ++k) {
            const double h = 1e-6;
            auto xp = x0, xm = x0;
            Flat<A>::p(std::get<I>(xp))[k] += h;
            Flat<A>::p(std::get<I>(xm))[k] -= h;
            const double fd =
                (weighted(w, std::apply(f, xp)) - weighted(w, std::apply(f, xm))) / (2 * h);
            A gi = std::get<I>(grads);
            const double got = Flat<A>::p(gi)[k] - 0.25;
            EXPECT_NEAR(got, fd, tol * std::max(1.0, std::fabs(fd)))
                << "input " << I << " component " << k;
        }
    };
    [&]<size_t... I>(std::index_sequence<I...>) {
        (check_input(std::integral_constant<size_t, I>{}), ...);
    }
    (std::index_sequence_for<In...>{});
}

/// See the file comment. `tol` is relative to max(1, |finite difference|).
template <typename F, typename G, typename... In>
void check_results_adjoint(F f, G g, double tol, In... in) {
    check_core(
        f,
        [&](const auto& results, auto& grads, const auto& w) {
            std::apply(
                [&](const auto&... rs) {
                    std::apply(
                        [&](const auto&... ws) {
                            std::apply([&](auto&... gs) { g(in..., rs..., gs..., ws...); }, grads);
                        },
                        w);
                },
                results);
        },
        tol, in...);
}

/// check_adjoint(f, adj_f, tol, inputs...): one result, adjoint adj_f(inputs..., adj_inputs&...,
/// adj_ret) (the convention of single-result builtins).
template <typename F, typename G, typename... In>
void check_adjoint(F f, G g, double tol, In... in) {
    check_core([&](auto... x) { return std::make_tuple(f(x...)); },
               [&](const auto&, auto& grads, const auto& w) {
                   std::apply([&](auto&... gs) { g(in..., gs..., std::get<0>(w)); }, grads);
               },
               tol, in...);
}

}  // namespace adjoint_check

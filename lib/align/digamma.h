#pragma once
// The digamma function psi(x) = d/dx ln Gamma(x), for x > 0: the variational-Bayes M-step
// of a translation table (ibm2's and hmm's --alpha) sets t(f | e) = exp(psi(c(e, f) + alpha)
// - psi(sum_f (c(e, f) + alpha))). By the recurrence up to 7, then the asymptotic series, as
// fast_align computes it.
namespace rnnsearch::align {

double digamma(double x);

}  // namespace rnnsearch::align

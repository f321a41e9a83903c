// The bench's budgets that are not a row module's own (notes/performance.md); bench.json carries them.
export const BUDGET = {
  activationMs: 25,
  /** Our activation (load + activate()) over the reference extension's, medians of the same launches: at
   *  most a quarter more than an ordinary extension's (it read 0.35x-0.68x on the 2-core machine, busy with
   *  other work; a 60 ms busy loop reads about 2.4x). */
  activationRatio: 1.25,
  /** The API layer's extra first-use cost over a plain client's of the same libraries, the median of the
   *  per-pair ratios: at most twice the libraries' own (it read 1.16x-1.40x on the busy 2-core machine). */
  apiFirstUseRatio: 2,
  /** The activation bundle's size (issue 30's ceiling: the Clusters tree's rows, the account check and every
   *  command's registration load at activation; what activation costs is the activation ratio's gate). */
  bundleKB: 100,
  apiFirstUseMs: 100,
  treeItemsMs: 20,
  idleMs: 60_000,
  overheadRatio: 1.2,
};

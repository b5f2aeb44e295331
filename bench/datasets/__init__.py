"""Every generator and corpus loader of the benchmarks: labelled (tuning), held-out (reporting only), records, tuning22, clustering."""

"""Detection quality: scored runs on the labelled and held-out sets, the peers beside dedup, and the sweeps that chose the defaults."""

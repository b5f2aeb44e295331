"""The databases dedup reads: the source table (streamed by keyset), engines, masked errors."""

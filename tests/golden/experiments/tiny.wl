# golden-test workload: a hand-made trace in tests/golden/traces

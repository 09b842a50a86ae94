// CommandLineSupport: the types `trigger-eval` reads its own input with: `next`'s queries
// (`FireDateQuery`, the `--batch` line scanner) and `simulate`'s scenario files
// (`Scenario`, `ScenarioRunner`). They are `package`, not public: an embedder never
// sees them. They live in the library target rather than in `Sources/trigger-eval`
// because the fuzzing package (`Fuzz/`) drives them through the library product;
// nothing else in the library calls them, so the layers still point one way:
// readers and models → triggers → dispatcher → center → this folder → the CLI.

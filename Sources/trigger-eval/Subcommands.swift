import ArgumentParser

extension TriggerEval {
    /// Every subcommand, in the order `--help` lists them. One file per subcommand.
    static let allSubcommands: [any ParsableCommand.Type] = [
        Next.self,
        Geofence.self,
        Simulate.self,
        Run.self,
        ICS.self,
    ]
}

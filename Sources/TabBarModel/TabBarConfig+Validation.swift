extension TabBarConfig {
    /// Semantic validation of an already-typed document (docs/ARCHITECTURE.md, "The config document"). Empty = valid.
    public func validate() -> [ValidationProblem] {
        var validator = ConfigValidator(config: self)
        return validator.run()
    }
}

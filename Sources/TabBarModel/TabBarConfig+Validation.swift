extension TabBarConfig {
    /// Semantic validation of an already-typed document (DESIGN §3). Empty = valid.
    public func validate() -> [ValidationProblem] {
        var validator = ConfigValidator(config: self)
        return validator.run()
    }
}

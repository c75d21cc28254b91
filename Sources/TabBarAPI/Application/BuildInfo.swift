/// What this build of the service is: `tabconfig --version` prints it and `GET /healthz` answers it.
///
/// The version is raised with each release; the OpenAPI document's `info.version` is the API's own version and
/// changes only when the API does.
public enum BuildInfo {
    /// The service's version (semantic versioning).
    public static let version = "0.14.0"
}

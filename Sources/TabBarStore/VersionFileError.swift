/// Why a version file could not be parsed.
struct VersionFileError: Error {
    var message: String
}

// The adapter (TabBarControllerAdapter.swift, a symlink to the client's file) belongs to the client's module, where
// it uses the client's types without importing them. Compiled here, outside that module, it sees them through this
// import, and only the public ones: a use of the client's internal API fails this target.
@_exported import TabConfigClient

import Foundation
import TabBarAPI
import Testing
import TestSupport

/// The service's settings are stated in three places: the configuration's code (the `TABCONFIG_*` variables it
/// reads, and their defaults), `serve --help`, and the docs' tables (docs/operating.md's "Configuration" above all).
/// These tests fail when the three differ: a variable one of them lacks, a flag the help does not have, a default
/// shown otherwise or not the code's.
@Suite("settings: the code, serve --help and the docs agree")
struct SettingsTableTests {
    /// One row of the "Configuration" table (docs/operating.md).
    struct Row: CustomStringConvertible {
        var flag: String?
        var variable: String
        /// The default when the table gives it as a literal (`8080`), else nil (words such as "cores").
        var literalDefault: String?
        var description: String { "\(flag ?? "—") \(variable)" }
    }

    @Test("serve --help names every TABCONFIG_ variable the configuration reads")
    func helpNamesEverySetting() throws {
        let names = try Self.variablesReadByTheCode()
        #expect(names.count >= 20)
        let (status, help) = try ServerProcess.run(["serve", "--help"])
        #expect(status == 0)
        for name in names {
            #expect(help.contains(name), "serve --help does not name \(name)")
        }
    }

    @Test("every variable the configuration reads has a row in a table of the README or docs")
    func everyVariableDocumented() throws {
        let documented = Set(try Self.readmeTableVariables())
        for variable in try Self.variablesReadByTheCode() {
            #expect(documented.contains(variable), "no table of README.md or docs/ has a row for \(variable)")
        }
    }

    @Test("each documented setting with a flag: serve --help has the flag and names the variable")
    func flagsAgree() throws {
        let help = try Self.helpEntries()
        let rows = try Self.configurationRows()
        #expect(rows.count >= 25)
        for row in rows {
            guard let flag = row.flag else { continue }
            let entry = try #require(help[flag], "serve --help has no \(flag) (docs/operating.md: \(row))")
            #expect(entry.contains(row.variable), "serve --help's \(flag) does not name \(row.variable)")
        }
    }

    @Test("each documented default given as a literal is the default serve --help shows")
    func defaultsAgree() throws {
        let help = try Self.helpEntries()
        for row in try Self.configurationRows() {
            guard let literal = row.literalDefault else { continue }
            let entry = try #require(help[row.flag ?? row.variable], "serve --help has no entry for \(row)")
            #expect(entry.contains("default \(literal)"), "docs/operating.md says \(row) defaults to \(literal); help: \(entry)")
        }
    }

    @Test("each documented default given as a literal is the code's: setting the variable to it changes nothing")
    func defaultsAreTheCodes() throws {
        let defaults = try Self.normalized(ApplicationConfiguration(environment: [:]))
        var checked = 0
        for row in try Self.configurationRows() {
            guard let literal = row.literalDefault else { continue }
            let set = try Self.normalized(ApplicationConfiguration(environment: [row.variable: literal]))
            #expect(set == defaults, "docs/operating.md says \(row) defaults to \(literal), which is not the code's default")
            checked += 1
        }
        #expect(checked >= 15)
    }

    /// `configuration` with its data directory standardized (`./data` and `data` are one directory).
    private static func normalized(_ configuration: ApplicationConfiguration) -> ApplicationConfiguration {
        var configuration = configuration
        configuration.dataDirectory = configuration.dataDirectory.standardizedFileURL
        return configuration
    }

    // MARK: - Reading the three places

    /// The `TABCONFIG_*` names in the configuration's sources.
    static func variablesReadByTheCode() throws -> [String] {
        var names = Set<String>()
        for file in ["Application/ApplicationConfiguration.swift", "Auth/UserAuthConfiguration.swift"] {
            let text = try String(contentsOf: Repository.url("Sources/TabBarAPI/\(file)"), encoding: .utf8)
            for match in text.matches(of: /"(TABCONFIG_[A-Z0-9_]+)"/) {
                names.insert(String(match.output.1))
            }
        }
        return names.sorted()
    }

    /// The variables named in the first cells of any table of README.md or docs/.
    static func readmeTableVariables() throws -> [String] {
        try documentation().split(separator: "\n").filter { $0.hasPrefix("|") }.compactMap { line in
            cells(of: line).prefix(2).lazy.compactMap(variable(in:)).first
        }
    }

    /// The rows of the "Configuration" table: `| flag | environment | default | meaning |`.
    static func configurationRows() throws -> [Row] {
        let text = try String(contentsOf: Repository.url("docs/operating.md"), encoding: .utf8)
        guard let header = text.range(of: "| flag | environment | default | meaning |\n|---|---|---|---|\n") else {
            throw SettingsTableError("docs/operating.md has no configuration table")
        }
        var rows: [Row] = []
        for line in text[header.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else { break }
            let cells = cells(of: line)
            guard cells.count >= 3, let variable = variable(in: cells[1]) else {
                throw SettingsTableError("a configuration row without a variable: \(line)")
            }
            let flag = cells[0].wholeMatch(of: /`(--[a-z0-9-]+)`/).map { String($0.output.1) }
            let literal = cells[2].wholeMatch(of: /`([^`]+)`/).map { String($0.output.1) }
            rows.append(Row(flag: flag, variable: variable, literalDefault: literal))
        }
        return rows
    }

    /// `serve --help` at 80 columns, as entries: each option's text by its flag, each variable of the discussion's
    /// list by its name, continuation lines joined.
    static func helpEntries() throws -> [String: String] {
        let (status, help) = try ServerProcess.run(["serve", "--help"], environment: ["COLUMNS": "80"])
        guard status == 0 else { throw SettingsTableError("serve --help exited \(status)") }
        var entries: [String: String] = [:]
        var current: String?
        for line in help.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let indent = line.prefix { $0 == " " }.count
            if indent == 2, let name = trimmed.split(separator: " ").first,
                name.hasPrefix("--") || name.hasPrefix("TABCONFIG_")
            {
                current = String(name)
                entries[String(name)] = trimmed
            } else if indent > 2, let name = current {
                entries[name]? += " " + trimmed
            } else {
                current = nil
            }
        }
        return entries
    }

    /// README.md and every Markdown file of docs/, one after the other.
    private static func documentation() throws -> String {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Repository.url("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return try (["README.md"] + docs).map { try String(contentsOf: Repository.url($0), encoding: .utf8) }
            .joined(separator: "\n")
    }

    /// A table row's cells, split at the `|`s that are not escaped.
    private static func cells(of line: Substring) -> [String] {
        var cells: [String] = []
        var cell = ""
        var previous: Character?
        for character in line.dropFirst() {
            if character == "|", previous != "\\" {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
            previous = character
        }
        return cells
    }

    private static func variable(in cell: String) -> String? {
        cell.firstMatch(of: /`(TABCONFIG_[A-Z0-9_]+)[`=]/).map { String($0.output.1) }
    }
}

/// The docs or the help could not be read as these tests expect.
struct SettingsTableError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

#if PostgreSQL
import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine
@testable import TriggerEngineCluster

@Suite("PostgresURL: what --store postgres://… accepts")
struct PostgresURLTests {
    @Test func theFormsItReads() throws {
        let full = try PostgresURL("postgresql://app:s%40cret@db.example:6543/notifications?sslmode=disable")
        #expect(full.user == "app" && full.password == "s@cret" && full.host == "db.example" && full.port == 6543
                && full.database == "notifications")
        let short = try PostgresURL("postgres://postgres@127.0.0.1/triggerengine")
        #expect(short.port == 5432 && short.password == nil)
        // The description never shows the password.
        #expect(full.description == "postgres://app@db.example:6543/notifications")
    }

    @Test(arguments: [
        ("mysql://u@h/db", "is not a postgres:// URL"),
        ("postgres://h/db", "names no user"),
        ("postgres://u@/db", "names no host"),
        ("postgres://u@h", "names no database"),
        ("postgres://u@h/a/b", "names no database"),
        ("postgres://u@h:0/db", "port 0 out of range"),
        ("postgres://u@h/db?sslmode=require", "only sslmode=disable"),
        ("postgres://u@h/db?application_name=x", "'application_name' is not supported"),
        ("not a url at all", "is not a postgres:// URL"),
    ])
    func whatItRefusesAndWhy(_ text: String, _ reason: String) {
        #expect {
            _ = try PostgresURL(text)
        } throws: { error in
            (error as? DataError)?.message.contains(reason) == true
        }
    }

    @Test func seededGarbageParsesOrIsRefusedNeverTraps() {
        var random = SplitMix64(seed: 23)
        let pieces = ["postgres://", "postgresql://", "u", ":", "@", "/", "?", "=", "&", "%", "%4", "%zz", "h", "db", "[", "]",
                      "::1", "65536", "0", "-1", "sslmode", "disable", " ", "\u{0}", "é", "#", "99999999999999999999"]
        var parsed = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...10, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            do {
                let url = try PostgresURL(text)
                parsed += 1
                #expect(!url.user.isEmpty && !url.host.isEmpty && !url.database.isEmpty && (1...65_535).contains(url.port))
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
        #expect(parsed > 0)
    }
}
#endif

#if PostgreSQL
import Foundation
import Testing
@testable import TriggerEngine

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
}
#endif

import Foundation
import Testing

@testable import TabConfigClient

/// A JWT of `payload`, unpadded base64url, with a signature nobody checks.
func jwt(_ payload: String) -> String {
    func encoded(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
    return "\(encoded(#"{"alg":"HS256","typ":"JWT"}"#)).\(encoded(payload)).c2ln"
}

@Suite("TokenSubject and the files of .me: users told apart by the token's sub")
struct TokenSubjectTests {
    @Test("The sub of a JWT's payload is read, whatever its padding; a token naming no one reads as nil")
    func subjects() {
        #expect(TokenSubject.of(jwt(#"{"sub":"alice","exp":1}"#)) == "alice")
        #expect(TokenSubject.of(jwt(#"{"sub":"bø~b?"}"#)) == "bø~b?")
        #expect(TokenSubject.of(jwt(#"{"sub":"ab"}"#)) == "ab")
        #expect(TokenSubject.of(jwt(#"{"exp":1}"#)) == nil)
        #expect(TokenSubject.of(jwt(#"{"sub":""}"#)) == nil)
        #expect(TokenSubject.of(jwt(#"{"sub":7}"#)) == nil)
        #expect(TokenSubject.of("not-a-token") == nil)
        #expect(TokenSubject.of("a.b.c") == nil)
        #expect(TokenSubject.of(nil) == nil)
    }

    @Test("Each user of .me has files and an owner of their own, apart from an id's and from earlier releases'")
    func filesPerSubject() {
        let scratch = Scratch()
        var me = scratch.configuration()
        me.user = .me
        let alice = ClientStorage(me, subject: "alice")
        let bob = ClientStorage(me, subject: "bob")
        let earlier = ClientStorage(me)
        let aliceById = scratch.storage(user: "alice")
        let files = [alice, bob, earlier, aliceById].map(\.pendingFile.lastPathComponent)
        #expect(Set(files).count == 4)
        #expect(Set([alice, bob, earlier, aliceById].map(\.owner)).count == 4)
        #expect(earlier.answerFile.lastPathComponent == "app.@me.tab-bar.json")
        #expect(ClientStorage(me, subject: "alice").answerFile == alice.answerFile)
    }
}

// Who may have written a style library: a library is code that runs in this process, so it is
// loaded only from places no one but its owner — root or the user running the host — can write
// (OpenSSH's safe_path, sudo's plugin checks; docs/design.md, plugin metadata and trust).
#if canImport(Glibc)
import Glibc
#endif
import ModalKitStyle
import ModalKitSystemSupport

/// Why a style library is not trusted: the file or a directory above it could have been written
/// by someone other than root or the user running the host.
public struct StyleTrustViolation: Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with `path`.
    public enum Problem: Hashable, Sendable {
        /// Owned by a user who is neither root nor the one running the host.
        case foreignOwner
        /// Writable by its group (and that group is not the user's own private group).
        case writableByGroup
        /// Writable by others.
        case writableByOthers
        /// Its status could not be read (`message` is `strerror`'s), so nothing can be said for it.
        case unreadable(message: String)
    }

    /// The library or the directory at fault (a real path: symbolic links resolved).
    public let path: String
    /// What is wrong with it.
    public let problem: Problem
    /// Its permission bits, including set-id and sticky bits (`st_mode & 07777`).
    public let mode: UInt32
    /// Its owner's uid.
    public let owner: UInt32
    /// The uid the host runs as (`geteuid`), which may own trusted files besides root.
    public let user: UInt32

    /// A violation; see the properties for each value.
    public init(path: String, problem: Problem, mode: UInt32, owner: UInt32, user: UInt32) {
        self.path = path; self.problem = problem; self.mode = mode; self.owner = owner; self.user = user
    }

    /// E.g. "/x/styles is writable by group (mode 0775, owner uid 1000)".
    public var description: String {
        let state = "(mode \(StyleTrustViolation.octal(mode)), owner uid \(owner))"
        switch problem {
        case .foreignOwner: return "\(path) is owned by another user \(state); only root or uid \(user) may own it"
        case .writableByGroup: return "\(path) is writable by group \(state)"
        case .writableByOthers: return "\(path) is writable by others \(state)"
        case let .unreadable(message): return "\(path) cannot be checked (\(message))"
        }
    }

    /// "0755", "1777".
    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// The trust rule for style libraries (OpenSSH's `safe_path`, sudo's plugin checks):
///
/// - a library found on the style path is loaded only if it and every directory above it, up to
///   `/`, are owned by root or the user running the host and are not writable by group or
///   others. A sticky directory writable by others (like `/tmp`) above the library's own
///   directory does not taint it (others cannot rename or remove what they do not own there):
///   `/tmp/me` (mode 0755, owned by the user) is trusted, `/tmp` itself as the library's
///   directory is not;
/// - a library the user names by path is checked alone: owned by root or the user, not
///   writable by group or others;
/// - group write is accepted when the group is the user's private group (the user-private-group
///   scheme of Debian and Fedora, whose default umask 002 makes a user's build directories
///   group-writable): the user's primary group, named like the user, listing no other member.
///
/// Paths are checked after resolving symbolic links (`realpath`), as `safe_path` does.
public enum StyleTrust {
    /// How much of a library's path is checked.
    public enum Scope: Hashable, Sendable {
        /// The file and every directory above it (a library found on the style path).
        case fileAndDirectories
        /// The file alone (a library the user named by its path).
        case file
    }

    /// The first violation of the rule for the library at `path`, nil when it may be loaded.
    /// - Parameters:
    ///   - path: the library file (symbolic links are resolved first).
    ///   - scope: how much of the path is checked (``Scope``).
    ///   - user: the uid that may own trusted files besides root (default: `geteuid()`).
    public static func check(_ path: String, scope: Scope, user: uid_t = geteuid()) -> StyleTrustViolation? {
        guard let resolved = Glibc.realpath(path, nil) else {
            return StyleTrustViolation(path: path, problem: .unreadable(message: String(cString: strerror(errno))),
                                       mode: 0, owner: 0, user: user)
        }
        let real = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(real, &info) == 0 else {
            return StyleTrustViolation(path: real, problem: .unreadable(message: String(cString: strerror(errno))),
                                       mode: 0, owner: 0, user: user)
        }
        return check(realPath: real, status: info, scope: scope, user: user)
    }

    /// The rule for a library already open: the file's part from `status` (`fstat` of the open
    /// descriptor — the file that will be loaded, whatever its path names by now), its
    /// directories (`scope`) by path from `realPath`.
    static func check(realPath real: String, status: stat, scope: Scope, user: uid_t = geteuid()) -> StyleTrustViolation? {
        if let violation = checkStatus(status, path: real, user: user, stickyAllowed: false) { return violation }
        guard scope == .fileAndDirectories else { return nil }
        return checkDirectory(PathName.deletingLastComponent(real), user: user)
    }

    /// The rule for a directory libraries are loaded from, and every directory above it up to
    /// `/` (a sticky one above `directory` excepted). `directory` is a real path.
    static func checkDirectory(_ start: String, user: uid_t = geteuid()) -> StyleTrustViolation? {
        var directory = start
        var isOwnDirectory = true
        while true {
            if directory.isEmpty { directory = "/" }
            if let violation = checkOne(directory, user: user, stickyAllowed: !isOwnDirectory) { return violation }
            if directory == "/" { return nil }
            directory = PathName.deletingLastComponent(directory)
            isOwnDirectory = false
        }
    }

    private static func checkOne(_ path: String, user: uid_t, stickyAllowed: Bool) -> StyleTrustViolation? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return StyleTrustViolation(path: path, problem: .unreadable(message: String(cString: strerror(errno))),
                                       mode: 0, owner: 0, user: user)
        }
        return checkStatus(info, path: path, user: user, stickyAllowed: stickyAllowed)
    }

    private static func checkStatus(_ info: stat, path: String, user: uid_t, stickyAllowed: Bool) -> StyleTrustViolation? {
        let mode = UInt32(info.st_mode) & 0o7777
        func violation(_ problem: StyleTrustViolation.Problem) -> StyleTrustViolation {
            StyleTrustViolation(path: path, problem: problem, mode: mode, owner: info.st_uid, user: user)
        }
        guard info.st_uid == 0 || info.st_uid == user else { return violation(.foreignOwner) }
        let sticky = mode & UInt32(S_ISVTX) != 0 && (info.st_mode & S_IFMT) == S_IFDIR
        if stickyAllowed && sticky { return nil }
        if mode & 0o002 != 0 { return violation(.writableByOthers) }
        if mode & 0o020 != 0 && !isPrivateGroup(info.st_gid, of: user) { return violation(.writableByGroup) }
        return nil
    }

    /// Whether `gid` is `uid`'s private group: its primary group, with the user's name, and no
    /// other member listed (Debian's and Fedora's user private groups).
    static func isPrivateGroup(_ gid: gid_t, of uid: uid_t) -> Bool {
        var pwd = passwd(), grp = group()
        var pwdResult: UnsafeMutablePointer<passwd>?, grpResult: UnsafeMutablePointer<group>?
        var pwdBuffer = [CChar](repeating: 0, count: 16384), grpBuffer = [CChar](repeating: 0, count: 65536)
        guard getpwuid_r(uid, &pwd, &pwdBuffer, pwdBuffer.count, &pwdResult) == 0, pwdResult != nil,
              getgrgid_r(gid, &grp, &grpBuffer, grpBuffer.count, &grpResult) == 0, grpResult != nil else { return false }
        let userName = String(cString: pwd.pw_name)
        guard pwd.pw_gid == gid, String(cString: grp.gr_name) == userName else { return false }
        var member = grp.gr_mem
        while let m = member?.pointee {
            if String(cString: m) != userName { return false }
            member = member! + 1
        }
        return true
    }
}

#if canImport(Glibc)
import Glibc
#endif
import ModalKitDemo
import ModalKitSystemSupport

/// The package `modal-demo new-style NAME` writes: a side drawer (a panel 70 % of the container
/// wide sliding in from the left edge, right corners rounded 12, black dim 0 → 0.3, a tap on the
/// dim dismisses) in one short style file, ready to build and change.
///
/// Files, under the package directory (`<Name>` standing for the name's type stem, e.g.
/// `SideDrawer`), four in all:
/// - `Package.swift` — product `ModalKitStyle<Name>` (`.dynamic`, so the loader finds
///   `libModalKitStyle<Name>.so`), depending on ModalKit by path; one target, the style, which
///   names ModalKit's build step `ModalKitStyleNote` in `plugins:`: it writes the library's ELF
///   note from the style's own declarations (docs/design.md, "The note of a style package").
/// - `Sources/<Name>Style/<Name>Style.swift` — the style, and at its end the C entry
///   (`@_cdecl("modalkit_style_entry")`); a target without it fails the note step, naming it.
/// - `README.md` — the next two commands.
/// - `.gitignore` — `.build/`.
public struct StyleTemplate: Equatable, Sendable {
    /// The style name (`--style NAME`), e.g. `side-drawer`.
    public let name: String
    /// The ModalKit package the style depends on, an absolute path.
    public let modalKitPath: String
    /// The `modal-demo` to name in the README's commands.
    public let demoPath: String

    /// - Throws: `UsageError` for a bad name (``validateName(_:)``).
    public init(name: String, modalKitPath: String, demoPath: String) throws {
        try StyleTemplate.validateName(name)
        self.name = name; self.modalKitPath = modalKitPath; self.demoPath = demoPath
    }

    /// A style name (`StyleName.validate`, which the command line checks too).
    /// - Throws: `UsageError` saying what is wrong.
    public static func validateName(_ name: String) throws { try StyleName.validate(name) }

    /// `side-drawer` → `SideDrawer`.
    public var typeStem: String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
    /// The style class, e.g. `SideDrawerStyle`.
    public var className: String { typeStem + "Style" }
    /// The library product, e.g. `ModalKitStyleSideDrawer`.
    public var productName: String { "ModalKitStyle" + typeStem }
    /// The built library's file name, e.g. `libModalKitStyleSideDrawer.so`.
    public var libraryFile: String { "lib\(productName).so" }
    /// The files to write, by path relative to the package directory, in writing order: the
    /// manifest last, so a write that fails part-way never leaves something SwiftPM takes for a
    /// package.
    public var files: [(path: String, contents: String)] {
        [(".gitignore", ".build/\n"),
         ("README.md", readme),
         ("Sources/\(className)/\(className).swift", styleSource + "\n" + entrySource),
         ("Package.swift", packageManifest)]
    }

    /// A Swift string literal of `s`.
    private static func literal(_ s: String) -> String {
        "\"" + s.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    public var packageManifest: String {
        """
        // swift-tools-version:5.10
        // The presentation style '\(name)', loaded by modal-demo (or any ModalKit host) at run time:
        //   swift build   → .build/debug/\(libraryFile)
        // The product's name must start with ModalKitStyle (the loader looks for libModalKitStyle*.so
        // by name) and be .dynamic, so that SwiftPM links a shared library.
        //
        // The library carries an ELF note with the style's name, summary and options, which hosts read
        // without loading it (listing styles and finding one by name run none of its code).
        // ModalKit's build step ModalKitStyleNote writes it from the style's own declarations. A build
        // step runs before SwiftPM compiles its target and cannot link it, so this one compiles the
        // target on the side, loads that as a host would and adds the note's source to the target
        // (ModalKit's docs/design.md, "The note of a style package"). The entry, modalkit_style_entry,
        // lives in the target too (at the end of \(className).swift); without it that step fails,
        // naming it.
        import PackageDescription

        let package = Package(
            name: \(StyleTemplate.literal(className)),
            products: [
                .library(name: \(StyleTemplate.literal(productName)), type: .dynamic, targets: [\(StyleTemplate.literal(className))]),
            ],
            dependencies: [
                .package(name: "ModalKit", path: \(StyleTemplate.literal(modalKitPath))),
            ],
            targets: [
                // The style: plain Swift on ModalKitStyle, what a style links (none of the host's code).
                .target(name: \(StyleTemplate.literal(className)), dependencies: [.product(name: "ModalKitStyle", package: "ModalKit")],
                        plugins: [.plugin(name: "ModalKitStyleNote", package: "ModalKit")]),
            ]
        )

        """
    }

    public var styleSource: String {
        """
        import ModalKitStyle

        /// A panel from the left edge, 70 % of the container wide, right corners rounded, over a black
        /// dim; a tap on the dim dismisses.
        public enum \(className): LoadablePresentationStyle {
            public static let name = \(StyleTemplate.literal(name))
            public static let summary = "panel 70 % wide slides in from the left edge over a black dim 0 → 0.3"
            static let width = StyleOption.number("width", "panel width, a fraction of the container", default: 0.7, in: 0.1...1)
            static let radius = StyleOption.number("corner-radius", "radius of the right corners", unit: "points", default: 12, in: 0...100)
            static let dim = StyleOption.number("dim-alpha", "alpha of the black dim when presented", default: 0.3, in: 0...1)
            public static let options = [width, radius, dim, .duration(), .curve()]

            public static func makeStyle(options: StyleOptions) throws -> PresentationStyle {
                let (fraction, cornerRadius, dimAlpha) = (try options.number(width), try options.number(radius), try options.number(dim))
                let style = PresentationStyle(transitionDuration: try options.duration(), timingCurve: try options.curve())
                style.frameOfPresentedView = { c in
                    let b = c.containerBounds
                    return Rect(x: b.minX, y: b.minY, width: (b.width * fraction).rounded(), height: b.height)
                }
                style.cornerStyle = { _ in CornerStyle(radius: cornerRadius, corners: [.topRight, .bottomRight]) }
                style.dimmingAppearance = { progress, _ in DimmingAppearance(color: .black, alpha: dimAlpha * progress) }
                // Slides in from beyond the left edge.
                style.presentedViewTransform = { progress, frame, _ in
                    ViewTransform(translation: Point(x: -(1 - progress) * frame.maxX, y: 0))
                }
                return style
            }
        }

        """
    }

    /// The end of the style's file: the one symbol the host looks up.
    public var entrySource: String {
        """
        /// The one symbol the host looks up (after checking the style ABI version this library
        /// carries). Keep it when you rename the enum.
        @_cdecl("modalkit_style_entry")
        public func modalkitStyleEntry() -> UnsafeRawPointer { exportStyle(\(className).self) }

        """
    }

    public var readme: String {
        """
        # \(name)

        A ModalKit presentation style, made by `modal-demo new-style \(name)`. Build it, then see it:

        ```sh
        swift build
        \(demoPath) render --style .build/debug/\(libraryFile) --size 390x844 --progress 0.5 --output half.png
        ```

        More: `\(demoPath) preview --style .build/debug/\(libraryFile) --size 390x844 --output \(name).webp`
        (the whole transition), `\(demoPath) --style .build/debug/\(libraryFile) --watch` (live, reloaded
        on every `swift build`), `\(demoPath) --describe-style .build/debug/\(libraryFile)` (its options).

        The style is `Sources/\(className)/\(className).swift`: each option is declared once (key,
        meaning, unit, default, accepted range) and read typed in `makeStyle(options:)`, which sets the
        hooks it changes on a `PresentationStyle` (named after `UIPresentationController`'s; a
        misspelled hook does not compile); the function at its end exports it to the host. At build
        time ModalKit's `ModalKitStyleNote` step writes the library's note (its name, summary and
        options, which hosts read without loading it) from those declarations, so there is nothing to
        keep in step by hand.

        """
    }

    // MARK: Writing

    /// Why the package could not be written: one line. `isUsage` errors (a directory that is not
    /// empty, or is something else: a file, a device, a FIFO, a socket, a link to one or to
    /// nothing) exit 2; I/O failures exit 1.
    public struct WriteError: Error, CustomStringConvertible {
        public let description: String
        public let isUsage: Bool
    }

    /// Checks, without writing or opening anything, that `directory` does not exist (and the
    /// nearest existing directory above it is one) or is an empty directory; a symbolic link to a
    /// directory counts as that directory.
    /// - Throws: `WriteError` (`isUsage`) naming what is in the way.
    public static func checkDestination(_ directory: String) throws {
        var st = stat()
        guard lstat(directory, &st) == 0 else {
            guard errno == ENOENT || errno == ENOTDIR else { return }   // told by the write
            // A new directory: what is above it must be a directory (mkdir -p makes the rest).
            var above = OutputFile.directoryName(directory)
            while lstat(above, &st) != 0 && errno == ENOENT && above != "." && above != "/" {
                above = OutputFile.directoryName(above)
            }
            var target = stat()
            if stat(above, &target) == 0, target.st_mode & S_IFMT != S_IFDIR {
                throw WriteError(description: "cannot make '\(directory)': '\(above)' is \(OutputFile.describe(target.st_mode)), not a directory",
                                 isUsage: true)
            }
            return
        }
        var kind = st.st_mode
        if st.st_mode & S_IFMT == S_IFLNK {
            let target = (try? FileSystem.linkTarget(directory)) ?? "?"
            guard stat(directory, &st) == 0 else {
                throw WriteError(description: "'\(directory)' is a symbolic link to '\(target)', which does not exist (new-style writes only into a new or empty directory)",
                                 isUsage: true)
            }
            kind = st.st_mode
            if kind & S_IFMT != S_IFDIR {
                throw WriteError(description: "'\(directory)' is a symbolic link to '\(target)', \(OutputFile.describe(kind)), not a directory",
                                 isUsage: true)
            }
        }
        guard kind & S_IFMT == S_IFDIR else {
            throw WriteError(description: "'\(directory)' exists and is \(OutputFile.describe(kind)), not a directory", isUsage: true)
        }
        let entries = (try? FileSystem.entries(ofDirectory: directory)) ?? ["?"]
        guard entries.isEmpty else {
            throw WriteError(description: "directory '\(directory)' is not empty (new-style writes only into a new or empty directory)",
                             isUsage: true)
        }
    }

    /// Writes the files into `directory` (created with its parents when missing), each a new file
    /// written through ``OutputFile`` (`replacing: false`: nothing that appears meanwhile is
    /// replaced or written through).
    /// - Throws: `WriteError`; on a failure exactly what this call made (files, then directories)
    ///   is removed again, nothing else.
    public func write(to directory: String) throws {
        try StyleTemplate.checkDestination(directory)
        var madeFiles: [String] = []
        var madeDirectories: [String] = []
        do {
            try StyleTemplate.makeDirectories(directory, made: &madeDirectories)
            for file in files {
                let path = directory + "/" + file.path
                try StyleTemplate.makeDirectories(OutputFile.directoryName(path), made: &madeDirectories)
                try OutputFile.write(Array(file.contents.utf8), to: path, replacing: false)
                madeFiles.append(path)
            }
        } catch {
            for path in madeFiles.reversed() { unlink(path) }
            for path in madeDirectories.reversed() { rmdir(path) }   // only while empty
            let usage = (error as? OutputFileError)?.isUsage ?? false
            let reason: String
            switch error {
            case let OutputFileError.notRegularFile(path, what): reason = "'\(path)' is \(what)"
            case let OutputFileError.writeFailed(path, why): reason = "'\(path)': \(why)"
            default: reason = String(describing: error)
            }
            throw WriteError(description: "cannot write the package in '\(directory)': \(reason)", isUsage: usage)
        }
    }

    /// `mkdir -p` that records each directory it made, outermost first; an existing directory (or
    /// a link to one) is used, anything else in the way fails.
    private static func makeDirectories(_ path: String, made: inout [String]) throws {
        var st = stat()
        if stat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else {
                throw OutputFileError.notRegularFile(path: path, what: OutputFile.describe(st.st_mode) + ", not a directory")
            }
            return
        }
        let parent = OutputFile.directoryName(path)
        if parent != path { try makeDirectories(parent, made: &made) }
        guard mkdir(path, 0o777) == 0 else {
            throw OutputFileError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
        made.append(path)
    }

    /// The ModalKit package a style made by the `modal-demo` at `executable` should depend on:
    /// in an installed prefix, `PREFIX/share/modalkit/ModalKit` (`scripts/install`); in a build
    /// tree, the checkout the executable was built from (the nearest ancestor directory with a
    /// `Package.swift` declaring `name: "ModalKit"`). Nil when neither exists.
    public static func modalKitPackage(forExecutable executable: String) -> String? {
        let exeDir = PathName.deletingLastComponent(executable)
        let installed = PathName.appending(PathName.deletingLastComponent(exeDir), "share/modalkit/ModalKit")
        if FileSystem.exists(installed + "/Package.swift") { return installed }
        var dir = exeDir
        while dir != "/" && !dir.isEmpty {
            let manifest = dir + "/Package.swift"
            if let bytes = try? FileSystem.contents(of: manifest),
               String(decoding: bytes, as: UTF8.self).containsText("name: \"ModalKit\"") {
                return dir
            }
            dir = PathName.deletingLastComponent(dir)
        }
        return nil
    }
}

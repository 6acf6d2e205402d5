import ModalKitSystemSupport

/// Shell completion scripts for `modal-demo`, made from ``CommandTable`` (the table `--help` is
/// printed from): the subcommands, each subcommand's options, and their values — style names from
/// `modal-demo --list-styles` (run by the shell when it completes, so a newly installed style is
/// offered at once), files, directories, or the words an option accepts.
/// `modal-demo completion bash|zsh|fish` prints one; `scripts/install` installs all three where
/// bash-completion, zsh and fish look for them (`share/bash-completion/completions/modal-demo`,
/// `share/zsh/site-functions/_modal-demo`, `share/fish/vendor_completions.d/modal-demo.fish`).
public enum ShellCompletion {
    /// A shell `completion` writes a script for.
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// The options that may be given more than once (each `--style` starts a level; each
    /// `--style-option` belongs to the `--style` before it).
    static let repeatable: Set<String> = ["--style", "--style-option"]

    /// The subcommands, as typed (the window has none).
    static var subcommands: [Subcommand] { Subcommand.allCases.filter { $0 != .window } }

    /// `ask`'s kinds, its first operand.
    static var askKinds: [String] { AskPrompt.Kind.allCases.map(\.rawValue) }

    /// The first line of a subcommand's description.
    static func summary(_ command: Subcommand) -> String {
        switch command {
        case .window: return "the window"
        case .render: return "draw one frame into a PNG file without a compositor"
        case .preview: return "the whole transition as an animated WebP (or a PNG strip)"
        case .dismissPoint: return "print where a tap on the dim dismisses"
        case .newStyle: return "write a style package to start from"
        case .completion: return "print a shell completion script"
        case .pinentry: return "ask for passphrases for gpg-agent (the pinentry protocol)"
        case .ask: return "ask one question, as zenity does (its answer on stdout, its exit status)"
        }
    }

    /// The script for `shell`.
    public static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: return bash()
        case .zsh: return zsh()
        case .fish: return fish()
        }
    }

    /// The rows `command` takes, one per long name.
    static func rows(_ command: Subcommand) -> [CommandOption] {
        CommandTable.optionNames(for: command).compactMap { CommandTable.option($0, in: command) }
    }

    /// The shell command listing style names: `--list-styles`' first column, without its comment
    /// lines (those starting with `#`).
    static let styleNames = "--list-styles 2>/dev/null | awk -F '\\t' '!/^#/ && NF { print $1 }'"

    /// The awk program listing a style's option keys from `--describe-style`: the first word of
    /// each line after the `options:` line and its column headings.
    static let styleOptionKeys = "awk 'f == 2 && NF { print $1 } f == 1 { f = 2 } /^options:/ { f = 1 }'"

    // MARK: bash

    static func bash() -> String {
        var valueCases: [String] = []
        // Value completions by option name: the same name means the same kind of value in every
        // subcommand that takes it (render's and preview's --output are both files).
        var seen = Set<String>()
        for option in CommandTable.options where option.value != nil && seen.insert(option.name).inserted {
            let reply: String
            switch option.completion {
            case .none: reply = "COMPREPLY=()"
            case .style: reply = "COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" \(styleNames))\" -- \"$cur\") $(compgen -f -- \"$cur\"))"
            case .file: reply = "COMPREPLY=($(compgen -f -- \"$cur\"))"
            case .directory: reply = "COMPREPLY=($(compgen -d -- \"$cur\"))"
            case .styleOption: reply = "_modal_demo_style_options"
            case .words(let words): reply = "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
            }
            valueCases.append("        \(option.name)) \(reply); return ;;")
        }
        var commandCases: [String] = []
        for command in Subcommand.allCases {
            var words = rows(command).flatMap { [$0.name] + ($0.alias.map { [$0] } ?? []) }
            if command == .completion { words = Shell.allCases.map(\.rawValue) + words }
            if command == .ask { words = askKinds + words }
            let pattern = command == .window ? "\"\"" : command.rawValue
            commandCases.append("        \(pattern)) words=\"\(words.joined(separator: " "))\" ;;")
        }
        return """
        # bash completion for modal-demo (made by `modal-demo completion bash` from its --help table)
        # --style-option: KEY= of the style the nearest --style before it names (its --describe-style).
        _modal_demo_style_options() {
            local i style=""
            for ((i = COMP_CWORD - 2; i > 0; i--)); do
                if [ "${COMP_WORDS[i]}" = --style ]; then style=${COMP_WORDS[i+1]}; break; fi
            done
            COMPREPLY=()
            [ -n "$style" ] || return
            COMPREPLY=($(compgen -S = -W "$("${COMP_WORDS[0]}" --describe-style "$style" 2>/dev/null | \(styleOptionKeys))" -- "$cur"))
            compopt -o nospace 2>/dev/null
        }
        _modal_demo() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command="" words i
            case $cur in --*=*) return ;; esac
            if [ "$COMP_CWORD" -gt 1 ]; then
                case $prev in
        \(valueCases.joined(separator: "\n"))
                esac
            fi
            for ((i = 1; i < COMP_CWORD; i++)); do
                case ${COMP_WORDS[i]} in
                    \(subcommands.map(\.rawValue).joined(separator: "|"))) command=${COMP_WORDS[i]}; break ;;
                esac
            done
            case $command in
        \(commandCases.joined(separator: "\n"))
            esac
            if [ -z "$command" ] && [ "$COMP_CWORD" -eq 1 ]; then
                words="\(subcommands.map(\.rawValue).joined(separator: " ")) $words"
            fi
            COMPREPLY=($(compgen -W "$words" -- "$cur"))
        }
        complete -F _modal_demo modal-demo

        """
    }

    // MARK: zsh

    /// `text` inside a zsh `_arguments` spec's brackets and single quotes.
    static func zshDescription(_ text: String) -> String {
        text.replacingAll("\\", with: "").replacingAll("'", with: "'\\''").replacingAll("[", with: "(")
            .replacingAll("]", with: ")").replacingAll(":", with: "\\:")
    }

    static func zshSpec(_ option: CommandOption) -> [String] {
        let description = zshDescription(option.help[0])
        let names = [option.name] + (option.alias.map { [$0] } ?? [])
        let action: String
        switch option.completion {
        case .none: action = option.value.map { ":\(zshDescription($0)): " } ?? ""
        case .style: action = ":style:_modal_demo_styles"
        case .file: action = ":file:_files"
        case .directory: action = ":directory:_files -/"
        case .styleOption: action = ":style option:_modal_demo_style_options"
        case .words(let words): action = ":value:(\(words.joined(separator: " ")))"
        }
        let star = repeatable.contains(option.name) ? "*" : ""
        return names.map { "'\(star)\($0)[\(description)]\(action)'" }
    }

    static func zsh() -> String {
        var cases: [String] = []
        for command in subcommands {
            var specs = rows(command).flatMap(zshSpec)
            switch command {
            case .newStyle: specs.append("'1:style name (lower-case letters, digits, dashes): '")
            case .completion: specs.append("'1:shell:(\(Shell.allCases.map(\.rawValue).joined(separator: " ")))'")
            case .ask: specs.append("'1:kind:(\(askKinds.joined(separator: " ")))'")
            default: break
            }
            cases.append("""
                    \(command.rawValue))
                        shift words; (( CURRENT-- ))
                        _arguments -s \(specs.joined(separator: " \\\n                ")) ;;
            """)
        }
        let window = rows(.window).flatMap(zshSpec)
        let commands = subcommands.map { "\($0.rawValue):\(zshDescription(summary($0)))" }
        return """
        #compdef modal-demo
        # zsh completion for modal-demo (made by `modal-demo completion zsh` from its --help table)

        # ($demo: the modal-demo being completed, set before a subcommand's branch shifts words.)
        _modal_demo_styles() {
            local -a styles
            styles=(${(f)"$(${demo:-${words[1]}} \(styleNames))"})
            _alternative 'styles:style:compadd -a styles' 'files:plugin file:_files'
        }

        # --style-option: KEY= of the style the nearest --style before it names (its --describe-style).
        _modal_demo_style_options() {
            local i style=""
            for ((i = CURRENT - 2; i > 0; i--)); do
                if [[ ${words[i]} == --style ]]; then style=${words[i+1]}; break; fi
            done
            [[ -n $style ]] || return 1
            local -a keys
            keys=(${(f)"$(${demo:-${words[1]}} --describe-style $style 2>/dev/null | \(styleOptionKeys))"})
            compadd -S = -- $keys
        }

        _modal_demo() {
            local demo=${words[1]}
            case ${words[2]} in
        \(cases.joined(separator: "\n"))
                *)
                    local -a commands
                    commands=(\(commands.map { "'\($0)'" }.joined(separator: " ")))
                    _arguments -s \(window.joined(separator: " \\\n                ")) \\
                        '1:: :->command'
                    [[ $state == command ]] && _describe -t commands 'modal-demo command' commands ;;
            esac
        }

        _modal_demo "$@"

        """
    }

    // MARK: fish

    /// `text` inside a fish double-quoted string.
    static func fishQuoted(_ text: String) -> String {
        "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"").replacingAll("$", with: "\\$") + "\""
    }

    static func fish() -> String {
        let all = subcommands.map(\.rawValue).joined(separator: " ")
        var lines = [
            "# fish completion for modal-demo (made by `modal-demo completion fish` from its --help table)",
            "complete -c modal-demo -f",
            "# Style names from the modal-demo being completed (its --list-styles' first column).",
            "function __modal_demo_styles",
            "    set -l demo (commandline -opc)[1]",
            "    command $demo \(styleNames)",
            "end",
            "# --style-option: KEY= of the style the nearest --style before it names (its --describe-style).",
            "function __modal_demo_style_options",
            "    set -l words (commandline -opc)",
            "    set -l style",
            "    for i in (seq (count $words) -1 2)",
            "        set -l j (math $i - 1)",
            "        if test \"$words[$j]\" = --style",
            "            set style $words[$i]",
            "            break",
            "        end",
            "    end",
            "    test -n \"$style\"; or return",
            "    command $words[1] --describe-style $style 2>/dev/null | \(styleOptionKeys) | string replace -r '$' '='",
            "end",
        ]
        for command in subcommands {
            lines.append("complete -c modal-demo -n \"not __fish_seen_subcommand_from \(all)\" -a \(command.rawValue) -d \(fishQuoted(summary(command)))")
        }
        for command in Subcommand.allCases {
            let condition = command == .window ? "not __fish_seen_subcommand_from \(all)"
                                               : "__fish_seen_subcommand_from \(command.rawValue)"
            for option in rows(command) {
                var line = "complete -c modal-demo -n \"\(condition)\" -l \(option.name.dropFirst(2))"
                if let alias = option.alias { line += " -s \(alias.dropFirst())" }
                switch option.completion {
                case _ where option.value == nil: break
                case .none: line += " -x"
                case .style: line += " -r -F -a \"(__modal_demo_styles)\""
                case .file: line += " -r -F"
                case .directory: line += " -x -a \"(__fish_complete_directories)\""
                case .styleOption: line += " -x -a \"(__modal_demo_style_options)\""
                case .words(let words): line += " -x -a \(fishQuoted(words.joined(separator: " ")))"
                }
                lines.append(line + " -d \(fishQuoted(option.help[0]))")
            }
        }
        lines.append("complete -c modal-demo -n \"__fish_seen_subcommand_from completion\" -a \(fishQuoted(Shell.allCases.map(\.rawValue).joined(separator: " ")))")
        lines.append("complete -c modal-demo -n \"__fish_seen_subcommand_from ask\" -a \(fishQuoted(askKinds.joined(separator: " ")))")
        return lines.joined(separator: "\n") + "\n"
    }
}

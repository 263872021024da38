// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell code, not templates
import {
  allCommands,
  type CompletionCommand,
  type CompletionOption,
  type ValueHint,
} from "./completion-model";

/**
 * The completion scripts of bash, zsh and fish, generated from the command tree. bash and zsh share
 * one walk over the words typed (which command, whether the word before wants a value); fish
 * declares each completion with its own conditions.
 */

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The words of a hint for the shared tables: `__files__` and `__profiles__` are done by the script. */
function hintWords(hint: ValueHint): string {
  switch (hint.kind) {
    case "words":
      return hint.words.join(" ");
    case "files":
      return "__files__";
    case "profiles":
      return "__profiles__";
    case "none":
      return "";
  }
}

/** Shell functions (bash and zsh alike) that answer the tables of the command tree. */
function tables(root: CompletionCommand): string {
  const commands = allCommands(root);
  const globals = root.options;
  const key = (c: CompletionCommand) => quote(c.path.join(" "));
  const flags = (...lists: CompletionOption[][]) =>
    [...new Set(lists.flat().flatMap((o) => o.flags))].join(" ");
  const valueOptions = new Map<string, string>();
  for (const c of commands)
    for (const o of [...c.options, ...globals])
      if (o.takesValue) for (const f of o.flags) valueOptions.set(f, hintWords(o.value));
  return [
    "_varia_commands() {",
    '  case "$1" in',
    ...commands
      .filter((c) => c.commands.length)
      .map((c) => `    ${key(c)}) echo ${quote(c.commands.map((s) => s.name).join(" "))} ;;`),
    "  esac",
    "}",
    "_varia_options() {",
    '  case "$1" in',
    ...commands.map(
      (c) => `    ${key(c)}) echo ${quote(c.path.length ? flags(c.options, globals) : flags(globals))} ;;`,
    ),
    "  esac",
    "}",
    "_varia_arguments() {",
    '  case "$1" in',
    ...commands
      .filter((c) => c.argument.kind !== "none")
      .map((c) => `    ${key(c)}) echo ${quote(hintWords(c.argument))} ;;`),
    "  esac",
    "}",
    `_varia_value_options=${quote([...valueOptions.keys()].join(" "))}`,
    "_varia_values() {",
    '  case "$1" in',
    ...[...valueOptions].map(([flag, words]) => `    ${quote(flag)}) echo ${quote(words)} ;;`),
    "  esac",
    "}",
    "",
    "# Which command the words before the cursor name, and whether the last of them wants a value.",
    "_varia_walk() {",
    '  _varia_path="" _varia_wants=""',
    "  local w",
    '  for w in "$@"; do',
    '    if [[ -n "$_varia_wants" ]]; then _varia_wants=""; continue; fi',
    '    case "$w" in',
    '      -*) [[ " $_varia_value_options " == *" $w "* ]] && _varia_wants="$w"; continue ;;',
    "    esac",
    '    if [[ " $(_varia_commands "$_varia_path") " == *" $w "* ]]; then',
    '      _varia_path="${_varia_path:+$_varia_path }$w"',
    "    fi",
    "  done",
    "}",
    "",
    "# The words that may come next: a value, an option, a command or an argument.",
    "_varia_candidates() {",
    '  if [[ -n "$_varia_wants" ]]; then _varia_values "$_varia_wants"',
    '  elif [[ "$1" == -* ]]; then _varia_options "$_varia_path"',
    "  else",
    "    local next",
    '    next="$(_varia_commands "$_varia_path")"',
    '    if [[ -n "$next" ]]; then echo "$next"; else _varia_arguments "$_varia_path"; fi',
    "  fi",
    "}",
  ].join("\n");
}

export function bashScript(root: CompletionCommand): string {
  return [
    "# bash completion of varia: `varia completion bash > ~/.local/share/bash-completion/completions/varia`",
    tables(root),
    "",
    "_varia() {",
    '  local cur="${COMP_WORDS[COMP_CWORD]}"',
    '  _varia_walk "${COMP_WORDS[@]:1:COMP_CWORD-1}"',
    "  local words",
    '  words="$(_varia_candidates "$cur")"',
    '  case "$words" in',
    '    __files__) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;',
    '    __profiles__) COMPREPLY=($(compgen -W "$(varia profiles --names 2>/dev/null)" -- "$cur")) ;;',
    '    *) COMPREPLY=($(compgen -W "$words" -- "$cur")) ;;',
    "  esac",
    "}",
    "complete -F _varia varia",
    "",
  ].join("\n");
}

export function zshScript(root: CompletionCommand): string {
  return [
    "#compdef varia",
    '# zsh completion of varia: `varia completion zsh > "${fpath[1]}/_varia"`, then compinit',
    tables(root),
    "",
    "_varia() {",
    '  local cur="${words[CURRENT]}"',
    '  _varia_walk "${(@)words[2,CURRENT-1]}"',
    "  local candidates",
    '  candidates="$(_varia_candidates "$cur")"',
    '  case "$candidates" in',
    "    __files__) _files ;;",
    '    __profiles__) compadd -- ${(f)"$(varia profiles --names 2>/dev/null)"} ;;',
    "    *) compadd -- ${=candidates} ;;",
    "  esac",
    "}",
    "",
    'if [[ "${funcstack[1]}" == "_varia" ]]; then _varia "$@"; else compdef _varia varia; fi',
    "",
  ].join("\n");
}

export function fishScript(root: CompletionCommand): string {
  const lines = [
    "# fish completion of varia: `varia completion fish > ~/.config/fish/completions/varia.fish`",
    "complete -c varia -f",
  ];
  const condition = (c: CompletionCommand) => {
    if (!c.path.length) return "__fish_use_subcommand";
    return c.path.map((word) => `__fish_seen_subcommand_from ${word}`).join("; and ");
  };
  // -r: the option takes a value; -F: files; -x: no files, only the words given.
  const value = (hint: ValueHint) =>
    hint.kind === "files"
      ? " -r -F"
      : hint.kind === "profiles"
        ? ` -x -a ${quote("(varia profiles --names 2>/dev/null)")}`
        : hint.kind === "words"
          ? ` -x -a ${quote(hint.words.join(" "))}`
          : " -x";
  const option = (o: CompletionOption, when: string) =>
    `complete -c varia${when ? ` -n ${quote(when)}` : ""}${o.short ? ` -s ${o.short.slice(1)}` : ""}${
      o.long ? ` -l ${o.long.slice(2)}` : ""
    }${o.takesValue ? value(o.value) : ""} -d ${quote(o.description)}`;
  for (const o of root.options) lines.push(option(o, ""));
  for (const c of allCommands(root)) {
    const subNames = c.commands.map((s) => s.name).join(" ");
    for (const sub of c.commands) {
      const when = c.path.length
        ? `${condition(c)}; and not __fish_seen_subcommand_from ${subNames}`
        : "__fish_use_subcommand";
      lines.push(`complete -c varia -n ${quote(when)} -a ${sub.name} -d ${quote(sub.description)}`);
    }
    if (!c.path.length) continue;
    for (const o of c.options) lines.push(option(o, condition(c)));
    if (c.argument.kind === "files") lines.push(`complete -c varia -n ${quote(condition(c))} -F`);
    if (c.argument.kind === "words")
      lines.push(`complete -c varia -n ${quote(condition(c))} -a ${quote(c.argument.words.join(" "))}`);
  }
  return `${lines.join("\n")}\n`;
}

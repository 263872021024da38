// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell code, not templates
import { Argument, type Command } from "commander";
import type { Lazy } from "../../program";

/** `varia completion bash|zsh|fish`. */
export function defineCompletion(program: Command, lazy: Lazy) {
  program
    .command("completion")
    .description("Print the shell completion script: bash, zsh or fish")
    .addArgument(new Argument("<shell>", "bash, zsh or fish").choices(["bash", "zsh", "fish"]))
    .addHelpText(
      "after",
      [
        "",
        "Install:",
        "  bash  varia completion bash > ~/.local/share/bash-completion/completions/varia",
        '  zsh   varia completion zsh > "${fpath[1]}/_varia"   (then: autoload -U compinit && compinit)',
        "  fish  varia completion fish > ~/.config/fish/completions/varia.fish",
        "",
      ].join("\n"),
    )
    .action(lazy(() => import("./print-completion").then((m) => m.runCompletion)));
}

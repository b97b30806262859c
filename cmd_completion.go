package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// bashCompletion asks ccsweep itself (urfave/cli's --generate-bash-completion)
// for the words that may follow.
const bashCompletion = `# ccsweep bash completion: source <(ccsweep completion bash)
_ccsweep_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}"
  local words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  local opts
  if [[ "$cur" == -* ]]; then
    opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o bashdefault -o default -F _ccsweep_complete ccsweep
`

const zshCompletion = `# ccsweep zsh completion: source <(ccsweep completion zsh)
autoload -U compinit && compinit
autoload -U bashcompinit && bashcompinit
` + bashCompletion

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:         "completion",
		Usage:        "print a shell completion script: source <(ccsweep completion bash)",
		UsageText:    "ccsweep completion bash|zsh",
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			switch c.Args().First() {
			case "bash":
				fmt.Fprint(c.App.Writer, bashCompletion)
			case "zsh":
				fmt.Fprint(c.App.Writer, zshCompletion)
			default:
				return usagef("completion: want bash or zsh")
			}
			return nil
		},
	}
}

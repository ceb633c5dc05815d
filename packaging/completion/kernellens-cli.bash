# bash completion for kernellens-cli: commands, review subcommands, options of the common commands, and
# file names (task folders, kernels, reviews, IR files) everywhere else.
_kernellens_cli() {
    local cur prev words cword
    _init_completion || return
    local commands="trace simulate review report export-trace compat findings batch numerics"
    local review="new add-task annotate score list reply resolve status merge agreement adjudicate"
    if [[ $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    case "${words[1]}" in
        review)
            if [[ $cword -eq 2 ]]; then
                COMPREPLY=($(compgen -W "$review" -- "$cur"))
                return
            fi
            ;;
    esac
    case "$prev" in
        --hw)
            COMPREPLY=($(compgen -W "trn1 trn2 trn3" -- "$cur"))
            return
            ;;
        --format)
            COMPREPLY=($(compgen -W "html pdf md json csv" -- "$cur"))
            return
            ;;
        --severity)
            COMPREPLY=($(compgen -W "blocking major minor nit praise" -- "$cur"))
            return
            ;;
        --set)
            COMPREPLY=($(compgen -W "todo in_progress done" -- "$cur"))
            return
            ;;
        --inputs)
            COMPREPLY=($(compgen -W "normal uniform bf16-stress fp8-stress outliers" -- "$cur"))
            _filedir '@(npy|npz)'
            return
            ;;
        --cuda-numerics)
            COMPREPLY=($(compgen -W "fp32-k-order tensor-core-bf16:16 split-k:4 fp16-accumulate none" -- "$cur"))
            return
            ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--help --hw --json --out -o --format --trust --no-sandbox --timeline --reference --cuda-numerics --inputs --seed --tolerance --rtol --atol --review" -- "$cur"))
        return
    fi
    _filedir
}
complete -F _kernellens_cli kernellens-cli

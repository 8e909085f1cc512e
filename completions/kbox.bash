# kbox shell completion, generated from the command tree by scripts/gen-docs.ts; do not edit.
_kbox_spec() {
  subs=''; opts=''; valued=''; args=''
  case "$1" in
    '') subs='backup daemon kb models resource sa profile auth config completion doctor find ask chat mcp catalog search-config labelset strategy sync watch add upload'; opts='-V --version --profile -q --quiet -h --help'; valued='--profile=profiles'; args='' ;;
    'backup') subs='create list restore delete schedule ls=list rm=delete'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'backup create') subs=''; opts='--kb -o --out --json -h --help --profile -q --quiet'; valued='--kb=kbs -o=file --out=file --profile=profiles'; args='' ;;
    'backup list') subs=''; opts='--json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'backup restore') subs=''; opts='--slug --title --json -h --help --profile -q --quiet'; valued='--slug=any --title=any --profile=profiles'; args='any' ;;
    'backup delete') subs=''; opts='-y --yes -h --help --profile -q --quiet'; valued='--profile=profiles'; args='any' ;;
    'backup schedule') subs=''; opts='--kb --every --keep --off --json -h --help --profile -q --quiet'; valued='--kb=kbs --every=any --keep=any --profile=profiles'; args='' ;;
    'daemon') subs='start stop status restart logs'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'daemon start') subs=''; opts='--listen --trust-roles-header --json -h --help --profile -q --quiet'; valued='--listen=any --profile=profiles'; args='' ;;
    'daemon stop') subs=''; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'daemon status') subs=''; opts='--json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'daemon restart') subs=''; opts='--listen --trust-roles-header -h --help --profile -q --quiet'; valued='--listen=any --profile=profiles'; args='' ;;
    'daemon logs') subs=''; opts='-n --lines -f --follow --level --json -h --help --profile -q --quiet'; valued='-n=any --lines=any --level=any --profile=profiles'; args='' ;;
    'kb') subs='create list show update config delete use export import agentic-config ls=list rm=delete'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'kb create') subs=''; opts='--title --description --use --json -h --help --profile -q --quiet'; valued='--title=any --description=any --profile=profiles'; args='any' ;;
    'kb list') subs=''; opts='--json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'kb show') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='kbs' ;;
    'kb update') subs=''; opts='--kb --title --description --slug --enforce-security --no-enforce-security --json -h --help --profile -q --quiet'; valued='--kb=kbs --title=any --description=any --slug=any --profile=profiles'; args='kbs' ;;
    'kb config') subs='set unset'; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='' ;;
    'kb config set') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any any' ;;
    'kb config unset') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'kb delete') subs=''; opts='-y --yes --json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='kbs' ;;
    'kb use') subs=''; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='kbs' ;;
    'kb export') subs=''; opts='--kb -o --out --json -h --help --profile -q --quiet'; valued='--kb=kbs -o=file --out=file --profile=profiles'; args='' ;;
    'kb import') subs=''; opts='--slug --title --into --json -h --help --profile -q --quiet'; valued='--slug=any --title=any --into=kbs --profile=profiles'; args='file' ;;
    'kb agentic-config') subs='create update list show delete ls=list rm=delete'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'kb agentic-config create') subs=''; opts='--kb --config --file --title --rephrase-prompt --rephrase-model --system-prompt --user-prompt --model -h --help --profile -q --quiet'; valued='--kb=kbs --config=any --file=file --title=any --rephrase-prompt=any --rephrase-model=any --system-prompt=any --user-prompt=any --model=any --profile=profiles'; args='any' ;;
    'kb agentic-config update') subs=''; opts='--kb --config --file --title --rephrase-prompt --rephrase-model --system-prompt --user-prompt --model -h --help --profile -q --quiet'; valued='--kb=kbs --config=any --file=file --title=any --rephrase-prompt=any --rephrase-model=any --system-prompt=any --user-prompt=any --model=any --profile=profiles'; args='any' ;;
    'kb agentic-config list') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='' ;;
    'kb agentic-config show') subs=''; opts='--kb -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'kb agentic-config delete') subs=''; opts='--kb -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'models') subs='list pull use add remove ls=list rm=remove'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'models list') subs=''; opts='--all --json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'models pull') subs=''; opts='--revision --from --dtype --pooling --query-prefix --passage-prefix --reranker --use --json -h --help --profile -q --quiet'; valued='--revision=any --from=file --dtype=choice:q8|fp32 --pooling=choice:cls|mean --query-prefix=any --passage-prefix=any --profile=profiles'; args='any' ;;
    'models use') subs=''; opts='--json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='any' ;;
    'models add') subs=''; opts='--url --model --api-key --dim --query-prefix --passage-prefix --no-check --use --json -h --help --profile -q --quiet'; valued='--url=any --model=any --api-key=any --dim=any --query-prefix=any --passage-prefix=any --profile=profiles'; args='any' ;;
    'models remove') subs=''; opts='-y --yes --force --json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='any' ;;
    'resource') subs='create list show status update delete ls=list rm=delete'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'resource create') subs=''; opts='--kb --title --summary --slug --text --text-file --format --label --hidden --body --wait --json -h --help --profile -q --quiet'; valued='--kb=kbs --title=any --summary=any --slug=any --text=any --text-file=file --format=any --label=any --body=any --profile=profiles'; args='' ;;
    'resource list') subs=''; opts='--kb --page --size --json -h --help --profile -q --quiet'; valued='--kb=kbs --page=any --size=any --profile=profiles'; args='' ;;
    'resource show') subs=''; opts='--kb --show --json -h --help --profile -q --quiet'; valued='--kb=kbs --show=any --profile=profiles'; args='any' ;;
    'resource status') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'resource update') subs=''; opts='--kb --title --summary --slug --label --hidden --no-hidden --json -h --help --profile -q --quiet'; valued='--kb=kbs --title=any --summary=any --slug=any --label=any --profile=profiles'; args='any' ;;
    'resource delete') subs=''; opts='--kb -y --yes -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'sa') subs='create list delete key ls=list rm=delete'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'sa create') subs=''; opts='--title --role --kb --json -h --help --profile -q --quiet'; valued='--title=any --role=choice:SOWNER|SCONTRIBUTOR|SMEMBER --kb=kbs --profile=profiles'; args='' ;;
    'sa list') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='' ;;
    'sa delete') subs=''; opts='--kb -y --yes -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'sa key') subs='create delete rm=delete'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'sa key create') subs=''; opts='--expires --kb --json -h --help --profile -q --quiet'; valued='--expires=any --kb=kbs --profile=profiles'; args='any' ;;
    'sa key delete') subs=''; opts='--kb -y --yes -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any any' ;;
    'profile') subs='list add use show remove ls=list rm=remove'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'profile list') subs=''; opts='--json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'profile add') subs=''; opts='--url --kb --use --force --json -h --help --profile -q --quiet'; valued='--url=any --kb=kbs --profile=profiles'; args='any' ;;
    'profile use') subs=''; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='profiles' ;;
    'profile show') subs=''; opts='--json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='profiles' ;;
    'profile remove') subs=''; opts='-y --yes -h --help --profile -q --quiet'; valued='--profile=profiles'; args='profiles' ;;
    'auth') subs='login status logout'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'auth login') subs=''; opts='--zone --kb --api-key --no-verify --no-use --json -h --help --profile -q --quiet'; valued='--zone=any --kb=kbs --api-key=any --profile=profiles'; args='' ;;
    'auth status') subs=''; opts='--check --json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'auth logout') subs=''; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'config') subs='get set unset list ls=list'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'config get') subs=''; opts='--json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='any' ;;
    'config set') subs=''; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='any any' ;;
    'config unset') subs=''; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='any' ;;
    'config list') subs=''; opts='--all --json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'completion') subs=''; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='choice:bash|zsh|fish' ;;
    'doctor') subs=''; opts='--json -h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'find') subs=''; opts='--kb --top-k --page --filter --label --path --type --features --config --vectorset --min-score --show-hidden --json -h --help --profile -q --quiet'; valued='--kb=kbs --top-k=any --page=any --filter=any --label=any --path=file --type=any --features=any --config=any --vectorset=any --min-score=any --profile=profiles'; args='any' ;;
    'ask') subs=''; opts='--kb --model --filter --label --path --features --top-k --config --agentic-config --citations --rag --prompt --max-tokens --sync --json -h --help --profile -q --quiet'; valued='--kb=kbs --model=any --filter=any --label=any --path=file --features=any --top-k=any --config=any --agentic-config=any --citations=any --rag=any --prompt=any --max-tokens=any --profile=profiles'; args='any' ;;
    'chat') subs=''; opts='--kb --model --filter --label --path --features --top-k --config --agentic-config --citations --rag --prompt --max-tokens -h --help --profile -q --quiet'; valued='--kb=kbs --model=any --filter=any --label=any --path=file --features=any --top-k=any --config=any --agentic-config=any --citations=any --rag=any --prompt=any --max-tokens=any --profile=profiles'; args='' ;;
    'mcp') subs=''; opts='--kb -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='' ;;
    'catalog') subs=''; opts='--kb --match --status --label --sort --page --size --json -h --help --profile -q --quiet'; valued='--kb=kbs --match=any --status=any --label=any --sort=any --page=any --size=any --profile=profiles'; args='any' ;;
    'search-config') subs='save list show delete ls=list rm=delete'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'search-config save') subs=''; opts='--kb --kind --config --file -h --help --profile -q --quiet'; valued='--kb=kbs --kind=any --config=any --file=file --profile=profiles'; args='any' ;;
    'search-config list') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='' ;;
    'search-config show') subs=''; opts='--kb -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'search-config delete') subs=''; opts='--kb -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'labelset') subs='set list show delete ls=list rm=delete'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'labelset set') subs=''; opts='--kb --title --label --kind --single -h --help --profile -q --quiet'; valued='--kb=kbs --title=any --label=any --kind=any --profile=profiles'; args='any' ;;
    'labelset list') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='' ;;
    'labelset show') subs=''; opts='--kb -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'labelset delete') subs=''; opts='--kb -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'strategy') subs='add list show remove ls=list rm=remove'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'strategy add') subs=''; opts='--kb --name --max-paragraph --splitter --extract --json -h --help --profile -q --quiet'; valued='--kb=kbs --name=any --max-paragraph=any --splitter=any --profile=profiles'; args='' ;;
    'strategy list') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='' ;;
    'strategy show') subs=''; opts='--kb -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'strategy remove') subs=''; opts='--kb -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'sync') subs='add list show run remove jobs logs ls=list rm=remove'; opts='-h --help --profile -q --quiet'; valued='--profile=profiles'; args='' ;;
    'sync add') subs=''; opts='--kb --name --label --include --exclude --interval --css-selector --xpath --json -h --help --profile -q --quiet'; valued='--kb=kbs --name=any --label=any --include=any --exclude=any --interval=any --css-selector=any --xpath=any --profile=profiles'; args='any' ;;
    'sync list') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='' ;;
    'sync show') subs=''; opts='--kb --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'sync run') subs=''; opts='--kb --full --wait --json -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'sync remove') subs=''; opts='--kb --delete-resources -y --yes -h --help --profile -q --quiet'; valued='--kb=kbs --profile=profiles'; args='any' ;;
    'sync jobs') subs=''; opts='--kb --limit --cursor --json -h --help --profile -q --quiet'; valued='--kb=kbs --limit=any --cursor=any --profile=profiles'; args='any' ;;
    'sync logs') subs=''; opts='--kb --job --level --limit -f --follow --json -h --help --profile -q --quiet'; valued='--kb=kbs --job=any --level=any --limit=any --profile=profiles'; args='any' ;;
    'watch') subs=''; opts='--kb --label --include --exclude -f --follow --json -h --help --profile -q --quiet'; valued='--kb=kbs --label=any --include=any --exclude=any --profile=profiles'; args='file' ;;
    'add') subs=''; opts='--kb --wait --label --hidden --slug --split-strategy --extract-strategy --include --exclude --json -h --help --profile -q --quiet'; valued='--kb=kbs --label=any --slug=any --split-strategy=any --extract-strategy=any --include=any --exclude=any --profile=profiles'; args='any+' ;;
    'upload') subs=''; opts='--kb --resource --field --direct --split-strategy --extract-strategy --json -h --help --profile -q --quiet'; valued='--kb=kbs --resource=any --field=any --split-strategy=any --extract-strategy=any --profile=profiles'; args='file' ;;
  esac
}
_kbox_word_in() { local w="$1" s; shift; for s in $*; do [ "${s%%=*}" = "$w" ] && { echo "${s#*=}"; return 0; }; done; return 1; }
_kbox_walk() {
  # $@: the words before the cursor, without the leading "kbox"
  _kbox_path=''; _kbox_nargs=0; _kbox_expect=''
  _kbox_spec ''
  local w c
  for w in "$@"; do
    if [ -n "$_kbox_expect" ]; then _kbox_expect=''; continue; fi
    case "$w" in
      --*=*) continue ;;
      -*) _kbox_expect=$(_kbox_word_in "$w" $valued); continue ;;
    esac
    if [ "$_kbox_nargs" = 0 ] && c=$(_kbox_word_in "$w" $subs); then
      _kbox_path="${_kbox_path:+$_kbox_path }$c"; _kbox_spec "$_kbox_path"
    else
      _kbox_nargs=$((_kbox_nargs + 1))
    fi
  done
}
_kbox_argkind() {
  # the kind of positional number $1 (0-based), repeating a variadic last one
  local i=0 a last=''
  for a in $args; do
    last="$a"
    if [ "$i" = "$1" ]; then echo "${a%+}"; return; fi
    i=$((i + 1))
  done
  case "$last" in *+) echo "${last%+}" ;; esac
}
_kbox_values() {
  # candidate words for a value kind (files are left to the shell)
  case "$1" in
    kbs) command kbox __complete kbs 2>/dev/null ;;
    profiles) command kbox __complete profiles 2>/dev/null ;;
    choice:*) echo "${1#choice:}" | tr '|' ' ' ;;
  esac
}
_kbox() {
  local cur="${COMP_WORDS[COMP_CWORD]}" kind
  _kbox_walk "${COMP_WORDS[@]:1:COMP_CWORD-1}"
  if [ -n "$_kbox_expect" ]; then kind="$_kbox_expect"
  elif [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); return
  elif [ -n "$subs" ] && [ "$_kbox_nargs" = 0 ]; then COMPREPLY=($(compgen -W "$(for s in $subs; do echo "${s%%=*}"; done)" -- "$cur")); return
  else kind=$(_kbox_argkind "$_kbox_nargs"); fi
  case "$kind" in
    file) COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null ;;
    '') COMPREPLY=() ;;
    *) COMPREPLY=($(compgen -W "$(_kbox_values "$kind")" -- "$cur")) ;;
  esac
}
complete -F _kbox kbox

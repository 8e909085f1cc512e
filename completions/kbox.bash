# kbox shell completion, generated from the command tree by scripts/gen-docs.ts; do not edit.
_kbox_spec() {
  subs=''; opts=''; valued=''; args=''
  case "$1" in
    '') subs='backup task dataset guardrail daemon kb agent account invite token api models nua predict resource sa profile auth config completion doctor find activity quality feedback ask chat mcp catalog search-config labelset strategy sync watch add upload'; opts='-V --version --profile --account -q --quiet -h --help'; valued='--profile=profiles --account=any'; args='' ;;
    'backup') subs='create list restore delete schedule ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'backup create') subs=''; opts='--kb -o --out --json -h --help --profile --account -q --quiet'; valued='--kb=kbs -o=file --out=file --profile=profiles --account=any'; args='' ;;
    'backup list') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'backup restore') subs=''; opts='--slug --title --json -h --help --profile --account -q --quiet'; valued='--slug=any --title=any --profile=profiles --account=any'; args='any' ;;
    'backup delete') subs=''; opts='-y --yes -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'backup schedule') subs=''; opts='--kb --every --keep --off --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --every=any --keep=any --profile=profiles --account=any'; args='' ;;
    'task') subs='start list show stop restart enable disable delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'task start') subs=''; opts='--kb --apply --params --params-file --disabled --wait --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --apply=choice:EXISTING|NEW|ALL --params=any --params-file=file --profile=profiles --account=any'; args='any' ;;
    'task list') subs=''; opts='--kb --available --count --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --count=any --profile=profiles --account=any'; args='' ;;
    'task show') subs=''; opts='--kb --follow --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'task stop') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'task restart') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'task enable') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'task disable') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'task delete') subs=''; opts='--kb --cleanup -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'dataset') subs='create list generate delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'dataset create') subs=''; opts='--type --label --format --json -h --help --profile --account -q --quiet'; valued='--type=choice:FIELD_CLASSIFICATION|PARAGRAPH_CLASSIFICATION|SENTENCE_CLASSIFICATION|TOKEN_CLASSIFICATION|IMAGE_CLASSIFICATION|PARAGRAPH_STREAMING|QUESTION_ANSWER_STREAMING|FIELD_STREAMING --label=any --format=choice:arrow|parquet --profile=profiles --account=any'; args='any' ;;
    'dataset list') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'dataset generate') subs=''; opts='--kb --rows --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --rows=any --profile=profiles --account=any'; args='any' ;;
    'dataset delete') subs=''; opts='--partition --partitions -h --help --profile --account -q --quiet'; valued='--partition=any --profile=profiles --account=any'; args='any' ;;
    'guardrail') subs='create list show update delete check ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'guardrail create') subs=''; opts='--instruction --query --description --enable --monitor --json -h --help --profile --account -q --quiet'; valued='--instruction=any --query=any --description=any --profile=profiles --account=any'; args='any' ;;
    'guardrail list') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'guardrail show') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'guardrail update') subs=''; opts='--name --instruction --query --enable --disable --blocking --monitor --json -h --help --profile --account -q --quiet'; valued='--name=any --instruction=any --query=any --profile=profiles --account=any'; args='any' ;;
    'guardrail delete') subs=''; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'guardrail check') subs=''; opts='--policy --json -h --help --profile --account -q --quiet'; valued='--policy=any --profile=profiles --account=any'; args='any' ;;
    'daemon') subs='start stop status restart logs'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'daemon start') subs=''; opts='--listen --trust-roles-header --json -h --help --profile --account -q --quiet'; valued='--listen=any --profile=profiles --account=any'; args='' ;;
    'daemon stop') subs=''; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'daemon status') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'daemon restart') subs=''; opts='--listen --trust-roles-header -h --help --profile --account -q --quiet'; valued='--listen=any --profile=profiles --account=any'; args='' ;;
    'daemon logs') subs=''; opts='-n --lines -f --follow --level --json -h --help --profile --account -q --quiet'; valued='-n=any --lines=any --level=any --profile=profiles --account=any'; args='' ;;
    'kb') subs='create list show update config delete use users invite export import push pull agentic-config source ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'kb create') subs=''; opts='--title --description --use --json -h --help --profile --account -q --quiet'; valued='--title=any --description=any --profile=profiles --account=any'; args='any' ;;
    'kb list') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'kb show') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='kbs' ;;
    'kb update') subs=''; opts='--kb --title --description --slug --enforce-security --no-enforce-security --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --title=any --description=any --slug=any --profile=profiles --account=any'; args='kbs' ;;
    'kb config') subs='set unset'; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='' ;;
    'kb config set') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any any' ;;
    'kb config unset') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'kb delete') subs=''; opts='-y --yes --json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='kbs' ;;
    'kb use') subs=''; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='kbs' ;;
    'kb users') subs=''; opts='--kb --add --update --remove --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --add=any --update=any --remove=any --profile=profiles --account=any'; args='' ;;
    'kb invite') subs='create list delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'kb invite create') subs=''; opts='--role --expires --kb --json -h --help --profile --account -q --quiet'; valued='--role=any --expires=any --kb=kbs --profile=profiles --account=any'; args='any' ;;
    'kb invite list') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='' ;;
    'kb invite delete') subs=''; opts='--kb -y --yes -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'kb export') subs=''; opts='--kb -o --out --json -h --help --profile --account -q --quiet'; valued='--kb=kbs -o=file --out=file --profile=profiles --account=any'; args='' ;;
    'kb import') subs=''; opts='--slug --title --into --json -h --help --profile --account -q --quiet'; valued='--slug=any --title=any --into=kbs --profile=profiles --account=any'; args='file' ;;
    'kb push') subs=''; opts='--kb --json -q --quiet -h --help --profile --account'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'kb pull') subs=''; opts='--kb --json -q --quiet -h --help --profile --account'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'kb agentic-config') subs='create update list show delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'kb agentic-config create') subs=''; opts='--kb --config --file --title --rephrase-prompt --rephrase-model --system-prompt --user-prompt --model -h --help --profile --account -q --quiet'; valued='--kb=kbs --config=any --file=file --title=any --rephrase-prompt=any --rephrase-model=any --system-prompt=any --user-prompt=any --model=any --profile=profiles --account=any'; args='any' ;;
    'kb agentic-config update') subs=''; opts='--kb --config --file --title --rephrase-prompt --rephrase-model --system-prompt --user-prompt --model -h --help --profile --account -q --quiet'; valued='--kb=kbs --config=any --file=file --title=any --rephrase-prompt=any --rephrase-model=any --system-prompt=any --user-prompt=any --model=any --profile=profiles --account=any'; args='any' ;;
    'kb agentic-config list') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='' ;;
    'kb agentic-config show') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'kb agentic-config delete') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'kb source') subs='list show create update delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'kb source list') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='' ;;
    'kb source show') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'kb source create') subs=''; opts='--kb --type --description --config --file -h --help --profile --account -q --quiet'; valued='--kb=kbs --type=any --description=any --config=any --file=file --profile=profiles --account=any'; args='any' ;;
    'kb source update') subs=''; opts='--kb --type --description --config --file -h --help --profile --account -q --quiet'; valued='--kb=kbs --type=any --description=any --config=any --file=file --profile=profiles --account=any'; args='any' ;;
    'kb source delete') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'agent') subs='create list show delete ask session driver workflow rule prompt export import ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'agent create') subs=''; opts='--title --description --no-memory --model --json -h --help --profile --account -q --quiet'; valued='--title=any --description=any --model=any --profile=profiles --account=any'; args='any' ;;
    'agent list') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'agent show') subs=''; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'agent delete') subs=''; opts='-y --yes -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'agent ask') subs=''; opts='--agent --session --workflow --json -h --help --profile --account -q --quiet'; valued='--agent=any --session=any --workflow=any --profile=profiles --account=any'; args='any' ;;
    'agent session') subs='create list show delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'agent session create') subs=''; opts='--agent --name --summary --data --json -h --help --profile --account -q --quiet'; valued='--agent=any --name=any --summary=any --data=any --profile=profiles --account=any'; args='any' ;;
    'agent session list') subs=''; opts='--agent --json -h --help --profile --account -q --quiet'; valued='--agent=any --profile=profiles --account=any'; args='' ;;
    'agent session show') subs=''; opts='--agent -h --help --profile --account -q --quiet'; valued='--agent=any --profile=profiles --account=any'; args='any' ;;
    'agent session delete') subs=''; opts='--agent -h --help --profile --account -q --quiet'; valued='--agent=any --profile=profiles --account=any'; args='any' ;;
    'agent driver') subs='add list delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'agent driver add') subs=''; opts='--agent --kb --url --key --name --top-k --config --json -h --help --profile --account -q --quiet'; valued='--agent=any --kb=kbs --url=any --key=any --name=any --top-k=any --config=any --profile=profiles --account=any'; args='any' ;;
    'agent driver list') subs=''; opts='--agent --json -h --help --profile --account -q --quiet'; valued='--agent=any --profile=profiles --account=any'; args='' ;;
    'agent driver delete') subs=''; opts='--agent -h --help --profile --account -q --quiet'; valued='--agent=any --profile=profiles --account=any'; args='any' ;;
    'agent workflow') subs='list add delete module ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'agent workflow list') subs=''; opts='--agent --json -h --help --profile --account -q --quiet'; valued='--agent=any --profile=profiles --account=any'; args='' ;;
    'agent workflow add') subs=''; opts='--agent --name --description -h --help --profile --account -q --quiet'; valued='--agent=any --name=any --description=any --profile=profiles --account=any'; args='any' ;;
    'agent workflow delete') subs=''; opts='--agent -h --help --profile --account -q --quiet'; valued='--agent=any --profile=profiles --account=any'; args='any' ;;
    'agent workflow module') subs='list add delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'agent workflow module list') subs=''; opts='--agent --workflow -h --help --profile --account -q --quiet'; valued='--agent=any --workflow=any --profile=profiles --account=any'; args='any' ;;
    'agent workflow module add') subs=''; opts='--agent --workflow --json -h --help --profile --account -q --quiet'; valued='--agent=any --workflow=any --profile=profiles --account=any'; args='any any' ;;
    'agent workflow module delete') subs=''; opts='--agent --workflow -h --help --profile --account -q --quiet'; valued='--agent=any --workflow=any --profile=profiles --account=any'; args='any any' ;;
    'agent rule') subs='set list ls=list'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'agent rule set') subs=''; opts='--agent --workflow -h --help --profile --account -q --quiet'; valued='--agent=any --workflow=any --profile=profiles --account=any'; args='any+' ;;
    'agent rule list') subs=''; opts='--agent --workflow --json -h --help --profile --account -q --quiet'; valued='--agent=any --workflow=any --profile=profiles --account=any'; args='' ;;
    'agent prompt') subs='add list show delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'agent prompt add') subs=''; opts='--agent --text --description --id --json -h --help --profile --account -q --quiet'; valued='--agent=any --text=any --description=any --id=any --profile=profiles --account=any'; args='any' ;;
    'agent prompt list') subs=''; opts='--agent --json -h --help --profile --account -q --quiet'; valued='--agent=any --profile=profiles --account=any'; args='' ;;
    'agent prompt show') subs=''; opts='--agent -h --help --profile --account -q --quiet'; valued='--agent=any --profile=profiles --account=any'; args='any' ;;
    'agent prompt delete') subs=''; opts='--agent -h --help --profile --account -q --quiet'; valued='--agent=any --profile=profiles --account=any'; args='any' ;;
    'agent export') subs=''; opts='--passphrase -o --output -h --help --profile --account -q --quiet'; valued='--passphrase=any -o=file --output=file --profile=profiles --account=any'; args='any' ;;
    'agent import') subs=''; opts='--passphrase --overwrite -h --help --profile --account -q --quiet'; valued='--passphrase=any --profile=profiles --account=any'; args='any file' ;;
    'account') subs='list show create update delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'account list') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'account show') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'account create') subs=''; opts='--title --description --json -h --help --profile --account -q --quiet'; valued='--title=any --description=any --profile=profiles --account=any'; args='any' ;;
    'account update') subs=''; opts='--title --description --slug -h --help --profile --account -q --quiet'; valued='--title=any --description=any --slug=any --profile=profiles --account=any'; args='any' ;;
    'account delete') subs=''; opts='-y --yes -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'invite') subs='accept'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'invite accept') subs=''; opts='--name --zone --save-profile --json -h --help --profile --account -q --quiet'; valued='--name=any --zone=any --save-profile=any --profile=profiles --account=any'; args='any' ;;
    'token') subs='ephemeral agent secure'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'token ephemeral') subs=''; opts='--kb --ttl --json --path --session -h --help --profile --account -q --quiet'; valued='--kb=kbs --ttl=any --path=file --session=any --profile=profiles --account=any'; args='' ;;
    'token agent') subs=''; opts='--kb --ttl --json --session -h --help --profile --account -q --quiet'; valued='--kb=kbs --ttl=any --session=any --profile=profiles --account=any'; args='' ;;
    'token secure') subs=''; opts='--kb --ttl --json --groups -h --help --profile --account -q --quiet'; valued='--kb=kbs --ttl=any --groups=any --profile=profiles --account=any'; args='' ;;
    'api') subs=''; opts='-F --field -f --raw-field -H --header --input --paginate --json -h --help --profile --account -q --quiet'; valued='-F=any --field=any -f=any --raw-field=any -H=any --header=any --input=file --profile=profiles --account=any'; args='any file' ;;
    'models') subs='list pull use add remove ls=list rm=remove'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'models list') subs=''; opts='--all --json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'models pull') subs=''; opts='--revision --from --dtype --pooling --query-prefix --passage-prefix --reranker --use --json -h --help --profile --account -q --quiet'; valued='--revision=any --from=file --dtype=choice:q8|fp32 --pooling=choice:cls|mean --query-prefix=any --passage-prefix=any --profile=profiles --account=any'; args='any' ;;
    'models use') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'models add') subs=''; opts='--url --model --api-key --dim --query-prefix --passage-prefix --no-check --use --json -h --help --profile --account -q --quiet'; valued='--url=any --model=any --api-key=any --dim=any --query-prefix=any --passage-prefix=any --profile=profiles --account=any'; args='any' ;;
    'models remove') subs=''; opts='-y --yes --force --json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'nua') subs='client process processed'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'nua client') subs='create list show update delete key ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'nua client create') subs=''; opts='--contact --description --webhook --tokens-limit --allow-kb-management --json -h --help --profile --account -q --quiet'; valued='--contact=any --description=any --webhook=any --tokens-limit=any --profile=profiles --account=any'; args='any' ;;
    'nua client list') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'nua client show') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'nua client update') subs=''; opts='--title --contact --tokens-limit --no-limit --json -h --help --profile --account -q --quiet'; valued='--title=any --contact=any --tokens-limit=any --profile=profiles --account=any'; args='any' ;;
    'nua client delete') subs=''; opts='-y --yes -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'nua client key') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'nua process') subs=''; opts='--title --kbid --label --webhook --model --wait --follow --json -h --help --profile --account -q --quiet'; valued='--title=any --kbid=kbs --label=any --webhook=any --model=any --profile=profiles --account=any'; args='any' ;;
    'nua processed') subs='list show ls=list'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'nua processed list') subs=''; opts='--limit --cursor --kbid --scheduled --desc --json -h --help --profile --account -q --quiet'; valued='--limit=any --cursor=any --kbid=kbs --profile=profiles --account=any'; args='' ;;
    'nua processed show') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'predict') subs='chat sentences query summarize rerank rephrase remi models'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'predict chat') subs=''; opts='-c --context --model --system --json -h --help --profile --account -q --quiet'; valued='-c=any --context=any --model=any --system=any --profile=profiles --account=any'; args='any' ;;
    'predict sentences') subs=''; opts='--model --json -h --help --profile --account -q --quiet'; valued='--model=any --profile=profiles --account=any'; args='any+' ;;
    'predict query') subs=''; opts='--rephrase --rephrase-prompt --json -h --help --profile --account -q --quiet'; valued='--rephrase-prompt=any --profile=profiles --account=any'; args='any' ;;
    'predict summarize') subs=''; opts='-f --file --extended --prompt --model --json -h --help --profile --account -q --quiet'; valued='-f=file --file=file --prompt=any --model=any --profile=profiles --account=any'; args='any+' ;;
    'predict rerank') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any any+' ;;
    'predict rephrase') subs=''; opts='-u --user --model --prompt --json -h --help --profile --account -q --quiet'; valued='-u=any --user=any --model=any --prompt=any --profile=profiles --account=any'; args='any' ;;
    'predict remi') subs=''; opts='-c --context --json -h --help --profile --account -q --quiet'; valued='-c=any --context=any --profile=profiles --account=any'; args='any any' ;;
    'predict models') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'resource') subs='create list show status update delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'resource create') subs=''; opts='--kb --title --summary --slug --text --text-file --format --label --hidden --body --wait --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --title=any --summary=any --slug=any --text=any --text-file=file --format=any --label=any --body=any --profile=profiles --account=any'; args='' ;;
    'resource list') subs=''; opts='--kb --page --size --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --page=any --size=any --profile=profiles --account=any'; args='' ;;
    'resource show') subs=''; opts='--kb --show --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --show=any --profile=profiles --account=any'; args='any' ;;
    'resource status') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'resource update') subs=''; opts='--kb --title --summary --slug --label --hidden --no-hidden --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --title=any --summary=any --slug=any --label=any --profile=profiles --account=any'; args='any' ;;
    'resource delete') subs=''; opts='--kb -y --yes -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'sa') subs='create list delete key ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'sa create') subs=''; opts='--title --role --kb --json -h --help --profile --account -q --quiet'; valued='--title=any --role=choice:SOWNER|SCONTRIBUTOR|SMEMBER --kb=kbs --profile=profiles --account=any'; args='' ;;
    'sa list') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='' ;;
    'sa delete') subs=''; opts='--kb -y --yes -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'sa key') subs='create delete rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'sa key create') subs=''; opts='--expires --kb --json -h --help --profile --account -q --quiet'; valued='--expires=any --kb=kbs --profile=profiles --account=any'; args='any' ;;
    'sa key delete') subs=''; opts='--kb -y --yes -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any any' ;;
    'profile') subs='list add use show remove ls=list rm=remove'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'profile list') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'profile add') subs=''; opts='--url --kb --use --force --json -h --help --profile --account -q --quiet'; valued='--url=any --kb=kbs --profile=profiles --account=any'; args='any' ;;
    'profile use') subs=''; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='profiles' ;;
    'profile show') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='profiles' ;;
    'profile remove') subs=''; opts='-y --yes -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='profiles' ;;
    'auth') subs='login status logout token'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'auth login') subs=''; opts='--zone --kind --kb --api-key --no-verify --no-use --json -h --help --profile --account -q --quiet'; valued='--zone=any --kind=any --kb=kbs --api-key=any --profile=profiles --account=any'; args='' ;;
    'auth status') subs=''; opts='--check --json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'auth logout') subs=''; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'auth token') subs='create list delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'auth token create') subs=''; opts='--expires --description --json -h --help --profile --account -q --quiet'; valued='--expires=any --description=any --profile=profiles --account=any'; args='' ;;
    'auth token list') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'auth token delete') subs=''; opts='-y --yes -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'config') subs='get set unset list ls=list'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'config get') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'config set') subs=''; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any any' ;;
    'config unset') subs=''; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='any' ;;
    'config list') subs=''; opts='--all --json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'completion') subs=''; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='choice:bash|zsh|fish' ;;
    'doctor') subs=''; opts='--json -h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'find') subs=''; opts='--kb --top-k --page --filter --label --path --type --features --config --vectorset --min-score --show-hidden --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --top-k=any --page=any --filter=any --label=any --path=file --type=any --features=any --config=any --vectorset=any --min-score=any --profile=profiles --account=any'; args='any' ;;
    'activity') subs='list show download metrics ls=list'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'activity list') subs=''; opts='--kb --month --filter --where --meta --show --limit --after --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --month=any --filter=any --where=any --meta=any --show=any --limit=any --after=any --profile=profiles --account=any'; args='any' ;;
    'activity show') subs=''; opts='--kb --event --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --event=any --profile=profiles --account=any'; args='any' ;;
    'activity download') subs=''; opts='--kb --month --filter --where --meta --show --format -o --output -h --help --profile --account -q --quiet'; valued='--kb=kbs --month=any --filter=any --where=any --meta=any --show=any --format=any -o=file --output=file --profile=profiles --account=any'; args='any' ;;
    'activity metrics') subs=''; opts='--kb --since --until --by --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --since=any --until=any --by=any --profile=profiles --account=any'; args='' ;;
    'quality') subs='scores trend'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'quality scores') subs=''; opts='--kb --month --status --feedback --below --limit --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --month=any --status=any --feedback=any --below=any --limit=any --profile=profiles --account=any'; args='' ;;
    'quality trend') subs=''; opts='--kb --since --until --by --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --since=any --until=any --by=any --profile=profiles --account=any'; args='' ;;
    'feedback') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any any any+' ;;
    'ask') subs=''; opts='--kb --model --filter --label --path --features --top-k --config --agentic-config --citations --rag --prompt --max-tokens --sync --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --model=any --filter=any --label=any --path=file --features=any --top-k=any --config=any --agentic-config=any --citations=any --rag=any --prompt=any --max-tokens=any --profile=profiles --account=any'; args='any' ;;
    'chat') subs=''; opts='--kb --model --filter --label --path --features --top-k --config --agentic-config --citations --rag --prompt --max-tokens -h --help --profile --account -q --quiet'; valued='--kb=kbs --model=any --filter=any --label=any --path=file --features=any --top-k=any --config=any --agentic-config=any --citations=any --rag=any --prompt=any --max-tokens=any --profile=profiles --account=any'; args='' ;;
    'mcp') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='' ;;
    'catalog') subs=''; opts='--kb --match --status --label --sort --page --size --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --match=any --status=any --label=any --sort=any --page=any --size=any --profile=profiles --account=any'; args='any' ;;
    'search-config') subs='save list show delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'search-config save') subs=''; opts='--kb --kind --config --file -h --help --profile --account -q --quiet'; valued='--kb=kbs --kind=any --config=any --file=file --profile=profiles --account=any'; args='any' ;;
    'search-config list') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='' ;;
    'search-config show') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'search-config delete') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'labelset') subs='set list show delete ls=list rm=delete'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'labelset set') subs=''; opts='--kb --title --label --kind --single -h --help --profile --account -q --quiet'; valued='--kb=kbs --title=any --label=any --kind=any --profile=profiles --account=any'; args='any' ;;
    'labelset list') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='' ;;
    'labelset show') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'labelset delete') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'strategy') subs='add list show remove ls=list rm=remove'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'strategy add') subs=''; opts='--kb --name --max-paragraph --splitter --extract --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --name=any --max-paragraph=any --splitter=any --profile=profiles --account=any'; args='' ;;
    'strategy list') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='' ;;
    'strategy show') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'strategy remove') subs=''; opts='--kb -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'sync') subs='add list show run remove jobs logs ls=list rm=remove'; opts='-h --help --profile --account -q --quiet'; valued='--profile=profiles --account=any'; args='' ;;
    'sync add') subs=''; opts='--kb --name --label --include --exclude --interval --css-selector --xpath --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --name=any --label=any --include=any --exclude=any --interval=any --css-selector=any --xpath=any --profile=profiles --account=any'; args='any' ;;
    'sync list') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='' ;;
    'sync show') subs=''; opts='--kb --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'sync run') subs=''; opts='--kb --full --wait --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'sync remove') subs=''; opts='--kb --delete-resources -y --yes -h --help --profile --account -q --quiet'; valued='--kb=kbs --profile=profiles --account=any'; args='any' ;;
    'sync jobs') subs=''; opts='--kb --limit --cursor --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --limit=any --cursor=any --profile=profiles --account=any'; args='any' ;;
    'sync logs') subs=''; opts='--kb --job --level --limit -f --follow --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --job=any --level=any --limit=any --profile=profiles --account=any'; args='any' ;;
    'watch') subs=''; opts='--kb --label --include --exclude -f --follow --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --label=any --include=any --exclude=any --profile=profiles --account=any'; args='file' ;;
    'add') subs=''; opts='--kb --wait --label --hidden --slug --split-strategy --extract-strategy --include --exclude --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --label=any --slug=any --split-strategy=any --extract-strategy=any --include=any --exclude=any --profile=profiles --account=any'; args='any+' ;;
    'upload') subs=''; opts='--kb --resource --field --direct --split-strategy --extract-strategy --json -h --help --profile --account -q --quiet'; valued='--kb=kbs --resource=any --field=any --split-strategy=any --extract-strategy=any --profile=profiles --account=any'; args='file' ;;
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

"""Records test/compat/sdk-wire/runpod-python-1.12.0-graphql.json: the literal GraphQL request bodies the
runpod-python 1.12.0 helpers send, by calling them with requests.post captured (nothing is sent anywhere).

Optional maintenance tool, not part of `npm test` (it needs Python 3 with `requests` and a checkout of
runpod-python at tag v1.12.0):

    python3 scripts/compat/record-runpod-python-graphql.py /path/to/runpod-python \
        > test/compat/sdk-wire/runpod-python-1.12.0-graphql.json

Only the SDK's runpod/api package and runpod/error.py are loaded (from a temporary copy, with a stub
package root and User-Agent), so none of its dependencies beyond `requests` are needed. Inputs and
expectations per helper: scripts/compat/runpod-python-graphql-steps.json ({{name}} placeholders are filled
in by the replay from earlier answers).
"""
import json
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
USER_AGENT = 'RunPod-Python-SDK/1.12.0 (Linux; x86_64) Language/Python 3.11'
NOTES = [
    'Each body is the literal request body the helper posts: json.dumps({"query": <document>}) with every argument inlined into the document by string formatting (no variables). Recorded by scripts/compat/record-runpod-python-graphql.py, which calls the 1.12.0 helpers with requests.post captured; nothing of the SDK is copied here but its wire output.',
    'URL: env RUNPOD_API_BASE_URL (default https://api.runpod.io) + /graphql; point it at the mock root. Headers: Content-Type: application/json, a RunPod-Python-SDK User-Agent, Authorization: Bearer <key> (never ?api_key=).',
    'The SDK does not check the HTTP status except 401 (AuthenticationError); a body with errors raises QueryError(errors[0].message); otherwise it reads the path under read.',
    '{{name}} in a body or expectation is the value captured as name by an earlier request (capture: path), or a setup value (apiKey, networkVolumeId). error: true means the SDK raises QueryError: HTTP 200 with errors[0].message.',
    'Checks: read = the path the helper returns (must be present); equals = path -> value; includes = list path -> an item matching (object fields, or equal scalar); defined = paths that must be non-null.',
]
VOLUME_USER = {'data': {'myself': {'networkVolumes': [{'id': '{{networkVolumeId}}', 'dataCenterId': '{{networkVolumeDataCenterId}}'}]}}}


def load_sdk(checkout: Path):
    root = Path(tempfile.mkdtemp()) / 'runpod'
    shutil.copytree(checkout / 'runpod' / 'api', root / 'api')
    shutil.copy(checkout / 'runpod' / 'error.py', root / 'error.py')
    (root / '__init__.py').write_text('api_key = None\n')
    (root / 'user_agent.py').write_text(f'USER_AGENT = {USER_AGENT!r}\n')
    sys.path.insert(0, str(root.parent))
    import runpod  # noqa: E402  (the temporary copy)
    import runpod.api.graphql as transport
    from runpod.api import ctl_commands
    return runpod, transport, ctl_commands


class Anything(dict):
    """An answer every helper can index into: data.<any>.<any> …"""
    def __missing__(self, key):
        return Anything()


class Answer:
    status_code = 200

    def __init__(self, body):
        self.body = body

    def json(self):
        return self.body


def record(checkout: Path) -> dict:
    runpod, transport, commands = load_sdk(checkout)
    runpod.api_key = 'KEY'
    sent = []

    def post(url, headers=None, data=None, timeout=None):
        sent.append({'url': url, 'headers': headers, 'body': data})
        query = json.loads(data)['query']
        if 'gpuTypes(input' in query:  # create_pod checks the GPU type first
            return Answer({'data': {'gpuTypes': [{'id': 'x'}]}})
        if 'networkVolumes' in query:  # create_pod looks up the volume's data centre
            return Answer(VOLUME_USER)
        return Answer(Anything(data=Anything()))

    transport.requests.post = post
    steps = []
    for step in json.loads((HERE / 'runpod-python-graphql-steps.json').read_text()):
        sent.clear()
        getattr(commands, step['helper'])(*step.get('args', []), **step.get('kwargs', {}))
        assert len(sent) == len(step['expect']), (step['helper'], len(sent))
        requests = []
        for request, expectation in zip(sent, step['expect']):
            assert request['url'] == 'https://api.runpod.io/graphql' and request['headers']['Authorization'] == 'Bearer KEY'
            requests.append({'method': 'POST', 'path': '/graphql', 'body': request['body'], **expectation})
        entry = {'generation': step.get('generation', '1.12.0'), 'call': call_text(step), 'requests': requests}
        if 'note' in step:
            entry['note'] = step['note']
        steps.append(entry)
    return {
        'sdk': 'runpod-python',
        'versions': {
            '1.12.0': 'tag v1.12.0 (commit 07fc6e2b): runpod/api/graphql.py, queries/, mutations/, ctl_commands.py',
            'rest-v2-wrapper': 'main after "migrate api wrapper to rest v2": its two GraphQL calls, get_user (queries/user.py QUERY_USER) and update_container_registry_auth (mutations/container_register_auth.py), send the same documents as 1.12.0',
        },
        'notes': NOTES,
        'headers': {'content-type': 'application/json', 'user-agent': USER_AGENT, 'authorization': 'Bearer {{apiKey}}'},
        'steps': steps,
    }


def call_text(step: dict) -> str:
    args = [json.dumps(a) for a in step.get('args', [])] + [f'{k}={json.dumps(v)}' for k, v in step.get('kwargs', {}).items()]
    return f"runpod.{step['helper']}({', '.join(args)})".replace('true', 'True').replace('null', 'None')


if __name__ == '__main__':
    print(json.dumps(record(Path(sys.argv[1])), indent=2, ensure_ascii=False))

/**
 * Type tests, compiled by `tsc --noEmit` (never executed). Each `@ts-expect-error` must stay an error:
 * if a type loosens, tsc reports the directive as unused and the build fails.
 */
import {
  createGraphqlClient,
  createQueueClient,
  createRestClient,
  createWebhookHandler,
  type JobRecord,
  type RestResult,
  type TerminalJobRecord,
} from '../../src/clients/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_: T): void {}

interface ImageInput {
  prompt: string;
  steps?: number;
}
interface ImageOutput {
  imageUrl: string;
}

export async function queueTypes() {
  const queue = createQueueClient<ImageInput, ImageOutput, string>({ endpointBaseUrl: 'http://127.0.0.1:1/v2', endpointId: 'ep', apiKey: 'k' });

  // Output type flows through run / status / waitFor / runAndWait.
  const submitted = await queue.run({ input: { prompt: 'cat' }, policy: { ttl: 60_000 } });
  assertType<Equal<typeof submitted, JobRecord<ImageOutput>>>(true);
  const done = await queue.runAndWait({ input: { prompt: 'cat' } });
  assertType<Equal<typeof done, TerminalJobRecord<ImageOutput>>>(true);
  const url: string | undefined = done.output?.imageUrl;
  void url;
  // @ts-expect-error output is ImageOutput, not any
  done.output?.notAField;

  for await (const chunk of queue.stream(submitted.id)) {
    const text: string = chunk.output;
    void text;
    // @ts-expect-error chunk output is string
    const wrong: number = chunk.output;
    void wrong;
  }

  // @ts-expect-error input must match the worker's Input type
  await queue.run({ input: { prompt: 1 } });
  // @ts-expect-error input is required
  await queue.run({ policy: { ttl: 60_000 } });
  // @ts-expect-error ttl is a number of milliseconds, not a string
  await queue.run({ input: { prompt: 'cat' }, policy: { ttl: '60s' } });
  // @ts-expect-error unknown top-level field of the job submission
  await queue.run({ input: { prompt: 'cat' }, webhookV3: 'https://x' });
  // @ts-expect-error lowPriority is boolean
  await queue.run({ input: { prompt: 'cat' }, policy: { lowPriority: 'yes' } });
  // @ts-expect-error s3Config needs all four fields
  await queue.run({ input: { prompt: 'cat' }, s3Config: { accessId: 'a' } });

  const health = await queue.health();
  const running: number = health.workers.running;
  void running;
  const purge = await queue.purgeQueue();
  assertType<Equal<typeof purge.status, 'completed'>>(true);
}

export async function restTypes() {
  const rest = createRestClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k' });
  const podsList = await rest.pods.list();
  assertType<Equal<typeof podsList, RestResult<'listPods'>>>(true);
  const firstId: string | undefined = podsList[0]?.id;
  void firstId;
  const auth = await rest.containerRegistryAuths.create({ name: 'r', username: 'u', password: 'p' });
  const authId: string = auth.id;
  void authId;
  // @ts-expect-error the create response never carries the password
  auth.password;
  // @ts-expect-error password is required on create
  await rest.containerRegistryAuths.create({ name: 'r', username: 'u' });
  // @ts-expect-error workersMax is a number
  await rest.endpoints.create({ templateId: 't', workersMax: 'three' });
  // @ts-expect-error unknown body field
  await rest.templates.create({ name: 't', imageName: 'i', imageTag: 'x' });
  // @ts-expect-error unknown resource
  rest.gpus.list();
  // @ts-expect-error unknown operation id
  await rest.request('listGpus', {});
  // @ts-expect-error path parameters are required for getPod
  await rest.request('getPod', {});
  await rest.request('getPod', { path: { podId: 'p' }, query: { includeMachine: true } });
  // @ts-expect-error registry auths cannot be updated
  rest.containerRegistryAuths.update;
  const deleted = await rest.pods.delete('p');
  assertType<Equal<typeof deleted, undefined>>(true);
}

export async function graphqlTypes() {
  const gql = createGraphqlClient({ graphqlUrl: 'http://127.0.0.1:1/graphql', apiKey: 'k' });
  const template = await gql.saveTemplate({ name: 't', imageName: 'i:1', containerDiskInGb: 5, volumeInGb: 0 });
  const name: string = template.name;
  void name;
  // @ts-expect-error containerDiskInGb is required
  await gql.saveTemplate({ name: 't', imageName: 'i:1', volumeInGb: 0 });
  // @ts-expect-error the secret value is never selectable
  (await gql.secretCreate({ name: 's', value: 'v' })).value;
  // @ts-expect-error auth is 'query' or 'header'
  createGraphqlClient({ graphqlUrl: 'http://x', apiKey: 'k', auth: 'cookie' });
}

export function webhookTypes() {
  createWebhookHandler<ImageInput, ImageOutput>({
    onJob: (job) => {
      const prompt: string = job.input.prompt;
      const image: string | undefined = job.output?.imageUrl;
      void prompt;
      void image;
      // @ts-expect-error input is ImageInput
      job.input.negativePrompt;
    },
  });
}

export async function rawLayerTypes() {
  const rest = createRestClient({ baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k' });
  const { data } = await rest.raw.GET('/pods/{podId}', { params: { path: { podId: 'p' } } });
  const podId: string | undefined = data?.id;
  void podId;
  // @ts-expect-error unknown path on the raw REST v1 layer
  await rest.raw.GET('/podz');
  const queue = createQueueClient({ endpointBaseUrl: 'http://127.0.0.1:1/v2', endpointId: 'ep', apiKey: 'k' });
  await queue.raw.POST('/run', { body: { input: {} } });
  // @ts-expect-error ttl is an integer, not a string
  await queue.raw.POST('/run', { body: { input: {}, policy: { ttl: '60000' } } });
}

import { IsString } from 'class-validator';
import { RouterError } from '@router/contracts';
import { JSON_MAX_DEPTH } from './json-object';
import { validationPipe } from './validation';

class NamedBody {
  @IsString({ message: 'name must be a string' })
  name!: string;
}

const asBody = { type: 'body', metatype: NamedBody } as const;
const deep = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);

async function refusal(value: unknown, status?: number): Promise<RouterError> {
  const error: unknown = await validationPipe(status)
    .transform(value, asBody)
    .then(
      () => new Error('accepted'),
      (thrown: unknown) => thrown,
    );
  if (!(error instanceof RouterError)) throw error;
  return error;
}

describe('validationPipe', () => {
  it('turns a valid body into its class', async () => {
    await expect(validationPipe().transform({ name: 'x' }, asBody)).resolves.toBeInstanceOf(NamedBody);
  });

  it.each([null, [], 'text', 7])(
    'refuses a body of %j: it must be a JSON object, with the route status',
    async (value) => {
      expect(await refusal(value, 422)).toMatchObject({
        code: 'bad_request',
        status: 422,
        message: 'the body must be a JSON object',
      });
    },
  );

  it('refuses a field nested 20,000 arrays deep naming it, before class-transformer walks it', async () => {
    expect(await refusal({ name: deep(20_000) })).toMatchObject({
      code: 'bad_request',
      status: 400,
      message: `name nests arrays and objects deeper than the limit of ${JSON_MAX_DEPTH} levels`,
    });
  });

  it('leaves route parameters alone', async () => {
    await expect(validationPipe().transform('vendor_a', { type: 'param', data: 'provider' })).resolves.toBe(
      'vendor_a',
    );
  });
});

import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { RouterError } from '@router/contracts';
import { jsonObjectOf } from './json-object';

/**
 * The body validation every native route uses: unknown fields are refused, and the message names each
 * field and rule that failed. `status` is 400 except where the spec documents 422 (provider keys).
 */
export function validationPipe(status = 400): ValidationPipe {
  return new BodyValidationPipe(status);
}

/**
 * A body is first checked to be a JSON object within the nesting limit: class-transformer walks it
 * recursively, and the JSON body parser (not strict, so that `null` gets this message) hands on any value.
 */
class BodyValidationPipe extends ValidationPipe {
  constructor(private readonly status: number) {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => RouterError.badRequest(describeErrors(errors), status),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body') jsonObjectOf(value, 'the body', this.status);
    return (await super.transform(value, metadata)) as unknown;
  }
}

export function describeErrors(errors: ValidationError[], parent = ''): string {
  return errors
    .flatMap((error) => {
      const field = parent ? `${parent}.${error.property}` : error.property;
      const own = Object.values(error.constraints ?? {}).map((message) =>
        message.startsWith('property ') ? `${field}: unknown field` : message.replace(error.property, field),
      );
      return [...own, ...(error.children?.length ? [describeErrors(error.children, field)] : [])];
    })
    .join('; ');
}

import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { RouterError } from '@router/contracts';

/**
 * The body validation every native route uses: unknown fields are refused, and the message names each
 * field and rule that failed. `status` is 400 except where the spec documents 422 (provider keys).
 */
export function validationPipe(status = 400): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => RouterError.badRequest(describeErrors(errors), status),
  });
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

import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SESSION_SECURITY_SCHEME } from '@router/auth';
import { type Option, VENDORS } from '@router/vendors';

/**
 * The native API's part of the router's OpenAPI 3.1 document, generated from its controllers and DTOs, served
 * at its own `/openapi.json`; the gateway serves the public document, this part with every other surface's
 * (the dashboard's `/api/...`). WebSocket protocols are described in AsyncAPI instead. Built once at start-up.
 */
export function nativeOpenApiPart(app: INestApplication): OpenAPIObject {
  const document = nativeDocument(app);
  return {
    ...document,
    components: {
      ...document.components,
      securitySchemes: { ...document.components?.securitySchemes, session: { ...SESSION_SECURITY_SCHEME } },
    },
  };
}

function nativeDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Speech synthesis cache router')
    .setDescription(
      'Native HTTP API of the router. Authenticate with `Authorization: Bearer rtr_…` except where noted ' +
        '(the provider-key endpoints also take the dashboard session; the `/api/...` dashboard endpoints take ' +
        'only the session). ' +
        'Errors use the envelope `{error: {code, message, retryable, provider_status?}}`.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Router API key (rtr_…)' })
    .addSecurityRequirements('bearer')
    .build();
  const document = SwaggerModule.createDocument(app, config, { operationIdFactory: (c, m) => `${c}_${m}` });
  const speech = document.components?.schemas?.['SpeechBodyDoc'];
  if (speech && !('$ref' in speech)) {
    speech.additionalProperties = true;
    speech.description =
      "Vendor options go top-level with the names of the vendor's options in GET /v1/models, each checked " +
      'against that catalogue entry (type, range, values, models); any other field is refused. A null option ' +
      "is the option's default.\n\n" +
      VENDORS.map(
        (def) => `- ${def.id}: ${def.catalogue.options.map(describeOption).join('; ') || 'no options'}`,
      ).join('\n');
    // The same, machine-readable: per vendor, the catalogue's Option entries.
    Object.assign(speech, {
      'x-vendor-options': Object.fromEntries(VENDORS.map((def) => [def.id, def.catalogue.options])),
    });
  }
  return { ...document, openapi: '3.1.0' };
}

function describeOption(option: Option): string {
  const range =
    option.values !== null
      ? ` (${option.values.join(', ')})`
      : option.min !== null || option.max !== null
        ? ` (${option.min ?? ''} to ${option.max ?? ''})`
        : '';
  const models = option.models ? `, models ${option.models.join(', ')}` : '';
  return `\`${option.name}\` ${option.type}${option.nullable ? ' or null' : ''}${range}${models}`;
}

import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  type PipeTransform,
  Post,
  Put,
  Req,
  Res,
  UseGuards,
  UsePipes,
} from '@nestjs/common';
import {
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import {
  AN_API_KEY,
  type AuditLog,
  OwnersOnly,
  SessionGuard,
  type SessionRequest,
  SessionOrApiKey,
} from '@router/admin';
import { RouterError } from '@router/contracts';
import type { ProviderKeyStore } from '@router/provider-keys';
import { isVendorId, VENDOR_IDS } from '@router/vendors';
import type { Response } from 'express';
import { AUDIT_LOG, CHANGE_NOTIFIER, PROVIDER_KEY_CHECK, PROVIDER_KEY_STORE } from '../tokens';
import { Anonymous, type ChangeNotifier, type IdentifiedRequest, validationPipe } from '@router/service-kit';
import type { ProviderKeyCheck } from './provider-key-check.service';
import { KeyCheckDto, ProviderKeyDto, PutProviderKeyBody } from './provider-key.dto';

const VALIDATION_STATUS = 422;

/** Checked before the body, so a wrong vendor token is the error reported. */
class ProviderParam implements PipeTransform<string, string> {
  transform(provider: string): string {
    if (!isVendorId(provider)) {
      throw RouterError.badRequest(`provider must be one of ${VENDOR_IDS.join(', ')}`, VALIDATION_STATUS);
    }
    return provider;
  }
}

/**
 * The org's stored vendor keys: write-only, encrypted, described by their last four characters. Taken with an
 * API key or a dashboard session (the spec's two forms): the gateway forwards a request with the session's
 * cookie and no key anonymously, and the session guard finds its org (401 when missing or expired, 403 for a
 * change without the session's CSRF token).
 */
@ApiTags('provider-keys')
@ApiSecurity('bearer')
@ApiCookieAuth('session')
@Controller('v1/provider-keys')
@Anonymous()
@SessionOrApiKey()
@UseGuards(SessionGuard)
@UsePipes(validationPipe(VALIDATION_STATUS))
export class ProviderKeysController {
  constructor(
    @Inject(PROVIDER_KEY_STORE) private readonly store: ProviderKeyStore,
    @Inject(CHANGE_NOTIFIER) private readonly changes: ChangeNotifier,
    @Inject(AUDIT_LOG) private readonly audit: AuditLog,
    @Inject(PROVIDER_KEY_CHECK) private readonly checks: ProviderKeyCheck,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List the vendors the org has stored a key for' })
  @ApiOkResponse({ type: [ProviderKeyDto] })
  list(@Req() req: IdentifiedRequest): Promise<ProviderKeyDto[]> {
    return this.store.list(orgOf(req));
  }

  @Put(':provider')
  @OwnersOnly()
  @ApiOperation({ summary: "Store or replace the org's key for a vendor (used within seconds)" })
  @ApiParam({ name: 'provider', enum: VENDOR_IDS })
  @ApiOkResponse({ type: ProviderKeyDto })
  async put(
    @Req() req: IdentifiedRequest,
    @Param('provider', ProviderParam) provider: string,
    @Body() body: PutProviderKeyBody,
  ): Promise<ProviderKeyDto> {
    const orgId = orgOf(req);
    const view = await this.store.put(orgId, provider, body.api_key);
    this.changes.providerKeyChanged(orgId, provider);
    await this.audit.record(orgId, actorOf(req), 'vendor_key.stored', provider);
    return view;
  }

  @Post(':provider/test')
  @HttpCode(200)
  @ApiOperation({
    summary: "Test the org's stored key for a vendor with the cheapest vendor call that uses it",
    description:
      'A vendor whose voices are read live lists them (nothing billed); one whose voices are the catalogue speaks ' +
      'one word uncached through a worker (a few characters billed). The outcome is said in words and kept as the ' +
      "key's last error (a pass clears it). Any member may test; nothing about the key changes.",
  })
  @ApiParam({ name: 'provider', enum: VENDOR_IDS })
  @ApiOkResponse({ type: KeyCheckDto })
  async test(
    @Req() req: IdentifiedRequest,
    @Param('provider', ProviderParam) provider: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<KeyCheckDto> {
    const orgId = orgOf(req);
    // A client that leaves stops the call at the vendor.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort(new Error('client gone'));
    });
    const result = await this.checks.check(orgId, provider, gone.signal);
    if (result.check !== 'none') {
      await this.store.recordCheck(
        orgId,
        provider,
        result.ok ? null : { code: result.code ?? 'internal', message: result.outcome },
      );
    }
    return result;
  }

  @Delete(':provider')
  @OwnersOnly()
  @HttpCode(204)
  @ApiOperation({ summary: "Delete the org's key for a vendor" })
  @ApiParam({ name: 'provider', enum: VENDOR_IDS })
  @ApiNoContentResponse()
  async remove(
    @Req() req: IdentifiedRequest,
    @Param('provider', ProviderParam) provider: string,
  ): Promise<void> {
    const orgId = orgOf(req);
    if (!(await this.store.delete(orgId, provider))) {
      throw new RouterError('not_found', `No key is stored for ${provider}.`);
    }
    this.changes.providerKeyChanged(orgId, provider);
    await this.audit.record(orgId, actorOf(req), 'vendor_key.deleted', provider);
  }
}

/** Who a change is put down to: the signed-in member, or the API key it came with. */
function actorOf(req: IdentifiedRequest): string {
  return (req as SessionRequest).session?.email ?? AN_API_KEY;
}

export function orgOf(req: IdentifiedRequest): string {
  if (req.orgId === undefined) throw RouterError.unauthorized();
  return req.orgId;
}

import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { IdentifiedRequest } from '@router/service-kit';
import { orgOf } from '../provider-keys/provider-keys.controller';
import { SPEECH_SERVICE } from '../tokens';
import { SpeechBodyDoc } from './speech-body.doc';
import type { SpeechService } from './speech.service';

/** Served ahead of Nest by a plain route (native-api.app.ts); this controller documents it and takes the rest. */
export const SPEECH_PATH = '/v1/audio/speech';

@ApiTags('speech')
@Controller(SPEECH_PATH.slice(1))
export class SpeechController {
  constructor(@Inject(SPEECH_SERVICE) private readonly speech: SpeechService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Speak a text: audio streamed as its sentences resolve (cached sentences cost nothing at the vendor)',
  })
  @ApiBody({ type: SpeechBodyDoc })
  @ApiProduces('audio/pcm', 'audio/wav', 'audio/mpeg', 'audio/aac', 'audio/mulaw', 'audio/alaw')
  @ApiResponse({ status: 200, description: 'The audio, streamed' })
  async speak(@Req() req: IdentifiedRequest, @Res() res: Response): Promise<void> {
    await this.speech.serve(orgOf(req), req.body, res);
  }
}

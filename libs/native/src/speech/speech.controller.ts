import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { IdentifiedRequest } from '@router/service-kit';
import { orgOf } from '../provider-keys/provider-keys.controller';
import { SPEECH_SERVICE } from '../tokens';
import { SpeechBodyDoc } from './speech-body.doc';
import { parseSpeechBody } from './speech-body';
import type { SpeechService } from './speech.service';

@ApiTags('speech')
@Controller('v1/audio/speech')
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
    const orgId = orgOf(req);
    await this.speech.speak(orgId, parseSpeechBody(req.body), res);
  }
}

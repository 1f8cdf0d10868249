import { RouterError } from '@router/contracts';
import { cannotProduce, producibleFormat } from './vendor-errors';

const isPcm = (format: string): format is 'pcm' => format === 'pcm';

describe('a format a vendor cannot make', () => {
  it('is refused as a bad request naming the vendor and the format', () => {
    const refusal = cannotProduce('vendor_b', 'mp3');
    expect(refusal).toBeInstanceOf(RouterError);
    expect([refusal.code, refusal.message]).toEqual(['bad_request', 'vendor_b cannot produce mp3 audio']);
  });

  it('is refused by producibleFormat, which gives one the vendor makes back as it is', () => {
    expect(producibleFormat('vendor_h', 'pcm', isPcm)).toBe('pcm');
    expect(() => producibleFormat('vendor_h', 'mp3', isPcm)).toThrow(
      cannotProduce('vendor_h', 'mp3').message,
    );
  });
});

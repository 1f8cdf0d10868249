import { parseVoicesQuery } from './voices.query';

describe('parseVoicesQuery', () => {
  it('takes a provider and an optional model of that provider', () => {
    expect(parseVoicesQuery({ provider: 'vendor_c' })).toEqual({ provider: 'vendor_c' });
    expect(parseVoicesQuery({ provider: 'vendor_a', model: 'a_model_2' })).toEqual({
      provider: 'vendor_a',
      model: 'a_model_2',
    });
  });

  it.each([
    [{}, /provider is required/],
    [{ provider: '' }, /provider is required/],
    [{ provider: 'vendor_h' }, /provider must be one of vendor_a, .*vendor_g$/],
    [{ provider: 'vendor_x' }, /provider must be one of/],
    [{ provider: ['vendor_a', 'vendor_b'] }, /provider must be given once/],
    [
      { provider: 'vendor_a', model: 'b_model_1' },
      /model must be one of vendor_a's models \(a_model_1, a_model_2\)/,
    ],
    [{ provider: 'vendor_a', model: 'vendor_a/a_model_1' }, /model must be one of/],
    [{ provider: 'vendor_a', model: '' }, /model must be one of/],
    [{ provider: 'vendor_a', language: 'hi-IN' }, /Unknown query parameter language/],
  ])('refuses %j with a bad_request naming the parameter', (query, message) => {
    expect(() => parseVoicesQuery(query)).toThrow(
      expect.objectContaining({ code: 'bad_request', message: expect.stringMatching(message) }),
    );
  });
});

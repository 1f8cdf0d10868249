import { failureCause } from './failure-cause';

describe('failureCause', () => {
  it("gives an error's type and its top frames, never its message", () => {
    let thrown: unknown;
    try {
      JSON.parse('{"text":"a sentence nobody may log\n at secret (rtr_key)');
    } catch (error) {
      thrown = error;
    }
    const cause = failureCause(thrown);
    expect(cause.type).toBe('SyntaxError');
    expect(cause.at?.[0]).toMatch(/^at JSON\.parse/);
    expect(JSON.stringify(cause)).not.toMatch(/sentence|secret|rtr_/);
  });

  it("keeps a system error's code", () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(failureCause(error)).toMatchObject({ type: 'Error', code: 'ECONNREFUSED' });
  });

  it('names the type of something thrown that is not an error', () => {
    expect(failureCause('a string')).toEqual({ type: 'string' });
  });
});

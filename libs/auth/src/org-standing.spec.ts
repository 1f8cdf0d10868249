import { orgStandingOf } from './org-standing';

describe('orgStandingOf', () => {
  it('reads an org out of credit only from its credit state, and a disabled one from its flag', () => {
    expect(orgStandingOf({ disabled: false, creditState: 'in_credit' })).toEqual({
      disabled: false,
      outOfCredit: false,
    });
    expect(orgStandingOf({ disabled: false, creditState: 'out_of_credit' })).toEqual({
      disabled: false,
      outOfCredit: true,
    });
    expect(orgStandingOf({ disabled: true, creditState: 'in_credit' })).toEqual({
      disabled: true,
      outOfCredit: false,
    });
  });
});

import { DEFAULT_OPTIONS, parseOptions } from './soak-options';

describe('parseOptions', () => {
  it('takes every option, and the defaults for the rest', () => {
    expect(
      parseOptions([
        '--seconds=25',
        '--http-clients=3',
        '--stream-sessions=0',
        '--sentences=12',
        '--faults=off',
        '--fault-kinds=restart,s3',
        '--pacing-factor=0.5',
        '--app-env=LOG_LEVEL=info,HOT_TIER_TTL_MS=0',
      ]),
    ).toEqual({
      ...DEFAULT_OPTIONS,
      seconds: 25,
      httpClients: 3,
      streamSessions: 0,
      sentences: 12,
      faults: false,
      faultKinds: ['restart', 's3'],
      pacingFactor: 0.5,
      appEnv: { LOG_LEVEL: 'info', HOT_TIER_TTL_MS: '0' },
    });
  });

  it.each([
    [['--seconds=2'], '--seconds must be an integer from 5 to 86400'],
    [['--sentences=201'], '--sentences must be an integer from 1 to 200'],
    [['--http-clients=x'], "--http-clients must be an integer from 0 to 200, got 'x'"],
    [['--faults=yes'], '--faults must be on or off'],
    [
      ['--fault-kinds=kill,flood'],
      "--fault-kinds takes some of kill, nats, s3, postgres, restart, got 'kill,flood'",
    ],
    [['--pacing-factor=-1'], '--pacing-factor must be a number from 0 to 10'],
    [['--app-env=lower=1'], "--app-env takes NAME=value pairs separated by commas, got 'lower=1'"],
    [['--speed=2'], 'unknown argument --speed=2'],
    [['--http-clients=0', '--stream-sessions=0'], 'there would be no traffic'],
  ])('refuses %j, naming what is wrong', (args, message) => {
    expect(() => parseOptions(args)).toThrow(message);
  });
});

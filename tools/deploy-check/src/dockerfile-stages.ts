/** One instruction of a Dockerfile, continuation lines joined, keyword upper-cased. */
export interface DockerInstruction {
  readonly keyword: string;
  readonly args: string;
}

export interface DockerStage {
  /** The image after FROM, unresolved (it may name an ARG). */
  readonly from: string;
  /** The `AS <name>` alias, or undefined. */
  readonly name: string | undefined;
  readonly instructions: readonly DockerInstruction[];
}

export interface ParsedDockerfile {
  /** Instructions before the first FROM (global ARGs and parser directives aside). */
  readonly preamble: readonly DockerInstruction[];
  readonly stages: readonly DockerStage[];
}

/**
 * Splits a Dockerfile into its build stages. Enough of the grammar for structural checks (comments, blank lines,
 * backslash continuations, `FROM image AS name`); no variable expansion, no heredocs.
 */
export function parseDockerfile(text: string): ParsedDockerfile {
  const instructions: DockerInstruction[] = [];
  let pending = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    // Comment lines inside a continued instruction are dropped by Docker too.
    if (pending !== '' && line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const joined = `${pending}${line}`.trim();
    pending = '';
    if (joined === '') continue;
    const match = /^(\S+)\s*(.*)$/s.exec(joined);
    if (match) instructions.push({ keyword: match[1].toUpperCase(), args: match[2].trim() });
  }
  if (pending.trim() !== '') throw new Error('Dockerfile ends inside a continued line');

  const preamble: DockerInstruction[] = [];
  const stages: { from: string; name: string | undefined; instructions: DockerInstruction[] }[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!from) throw new Error(`Unreadable FROM: ${instruction.args}`);
      stages.push({ from: from[1], name: from[2], instructions: [] });
    } else if (stages.length === 0) {
      preamble.push(instruction);
    } else {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return { preamble, stages };
}

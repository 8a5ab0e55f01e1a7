/** bin/env-file.ts: the .env reader the CLI uses before migrate and doctor. */
import { describe, expect, test } from 'vitest'
import { parseEnv } from '../../bin/env-file.js'

describe('parseEnv', () => {
  test('NAME=value lines, `export `, spaces around =, comments and blank lines', () => {
    const text = '# settings\n\nexport AUTH_SECRET=abc\n  PORT = 3000  \nEMPTY=\nURL=postgres://u:p@h/db#frag # the database\nHASH=#not-a-value\n'
    expect(parseEnv(text)).toEqual({ values: { AUTH_SECRET: 'abc', PORT: '3000', EMPTY: '', URL: 'postgres://u:p@h/db#frag', HASH: '' }, problems: [] })
  })

  test('double quotes read escapes and may span lines; single quotes are taken as written', () => {
    const text = 'A="one\\ntwo \\"three\\" \\\\ \\x" # note\nB=\'$HOME \\n "q"\'\nKEY="-----BEGIN\nline\n-----END"\nAFTER=1\n'
    expect(parseEnv(text)).toEqual({ values: { A: 'one\ntwo "three" \\ \\x', B: '$HOME \\n "q"', KEY: '-----BEGIN\nline\n-----END', AFTER: '1' }, problems: [] })
  })

  test('CRLF line ends and a byte-order mark; a later line for the same name wins', () => {
    expect(parseEnv('\uFEFFA=1\r\nB="x"\r\nA=2\r\n').values).toEqual({ A: '2', B: 'x' })
  })

  test('what is not of the form is named by line and skipped; the lines after it still count', () => {
    const text = 'GOOD=1\nnot an assignment\n1BAD=x\nQ="unclosed\nR=2\n'
    expect(parseEnv(text)).toEqual({
      values: { GOOD: '1' },
      problems: ['line 2: expected NAME=value', 'line 3: expected NAME=value', 'line 4: the double quote is never closed'],
    })
    expect(parseEnv("S='a' b\nT=ok\n")).toEqual({ values: { T: 'ok' }, problems: ['line 1: text after the closing quote'] })
  })
})

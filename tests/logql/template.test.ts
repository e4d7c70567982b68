import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../packages/logql/log/template';

// The template functions Loki documents for line_format and label_format.

const t = (src: string, labels: Record<string, string> = {}, line = 'the line') => compileTemplate(src)({ labels, line, tsNs: 1_700_000_000_000_000_000n });

describe('templates', () => {
  it('string functions', () => {
    expect(t('{{ ToLower "AbC" }} {{ upper "x" }} {{ title "hello world" }}')).toBe('abc X Hello World');
    expect(t('{{ Replace "aaa" "a" "b" 2 }} {{ replace "a" "b" "aaa" }}')).toBe('bba bbb');
    expect(t('{{ Trim "xxaxx" "x" }} {{ TrimPrefix "abc" "a" }} {{ TrimSuffix "abc" "c" }} {{ TrimSpace "  a  " }}')).toBe('a bc ab a');
    expect(t('{{ trunc 2 "abc" }} {{ trunc -2 "abc" }} {{ substr 1 3 "abcd" }} {{ repeat 3 "a" }}')).toBe('ab bc bc aaa');
    expect(t('{{ contains "b" "abc" }} {{ hasPrefix "a" "abc" }} {{ hasSuffix "x" "abc" }}')).toBe('true true false');
    expect(t('{{ trimAll "-" "--a--" }} {{ trimPrefix "a" "abc" }} {{ trimSuffix "c" "abc" }}')).toBe('a bc ab');
    expect(t('{{ alignLeft 5 "ab" }}|{{ alignRight 5 "ab" }}|{{ alignLeft 2 "abcd" }}')).toBe('ab   |   ab|ab');
    expect(t('{{ indent 2 "a" }}|{{ nindent 1 "b" }}')).toBe('  a|\n b');
  });
  it('regular expressions with Go replacement syntax', () => {
    expect(t('{{ regexReplaceAll "(a)(b)?" "xaby" "<$1${2}>" }}')).toBe('x<ab>y');
    expect(t('{{ regexReplaceAllLiteral "a" "aXa" "$1" }}')).toBe('$1X$1');
    expect(t('{{ count "a" "banana" }}')).toBe('3');
  });
  it('numbers, conversions and math', () => {
    expect(t('{{ add 1 2 3 }} {{ sub 5 2 }} {{ mul 2 3 }} {{ div 7 2 }} {{ mod 7 2 }}')).toBe('6 3 6 3 1');
    expect(t('{{ addf 1.5 2 }} {{ subf 5 0.5 }} {{ mulf 1.5 2 }} {{ divf 1 4 }}')).toBe('3.5 4.5 3 0.25');
    expect(t('{{ max 1 5 3 }} {{ min 4 2 }} {{ ceil 1.2 }} {{ floor 1.8 }} {{ round 1.55 1 }}')).toBe('5 2 2 1 1.6');
    expect(t('{{ .n | int }} {{ .f | float64 }}', { n: '42', f: '1.5' })).toBe('42 1.5');
    expect(t('{{ "1.5KB" | bytes }} {{ "1m30s" | duration }}')).toBe('1500 90');
  });
  it('encodings, defaults, printf, comparisons', () => {
    expect(t('{{ b64enc "hi" }} {{ b64dec "aGk=" }} {{ urlencode "a b&c" }} {{ urldecode "a+b%26c" }}')).toBe('aGk= hi a+b%26c a b&c');
    expect(t('{{ default "none" .x }} {{ default "none" .y }}', { x: '', y: 'set' })).toBe('none set');
    expect(t('{{ printf "%05.1f|%-4s|%d" 3.14159 "ab" 7 }}')).toBe('003.1|ab  |7');
    expect(t('{{ if and (gt .a "1") (ne .b "x") }}yes{{ else if .c }}c{{ else }}no{{ end }}', { a: '2', b: 'y', c: '' })).toBe('yes');
    expect(t('{{- " a " -}} {{ "b" }}')).toBe(' a b');
  });
  it('times: __timestamp__, date, toDate, unixEpoch, unixToTime', () => {
    expect(t('{{ __timestamp__ | unixEpoch }}')).toBe('1700000000');
    expect(t('{{ date "2006-01-02 15:04" __timestamp__ }}')).toBe('2023-11-14 22:13');
    expect(t('{{ toDate "2006-01-02" "2024-03-05" | unixEpoch }}')).toBe('1709596800');
    expect(t('{{ unixToTime "1700000000" | date "Jan 2 2006" }}')).toBe('Nov 14 2023');
    expect(t('{{ __line__ }}')).toBe('the line');
  });
  it('refuses unknown functions when compiled', () => {
    expect(() => compileTemplate('{{ nope .a }}')).toThrow(/function "nope" not defined/);
  });
});

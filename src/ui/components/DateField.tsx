import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dayFormatOf, formatDayInput, parseDayInput } from '../../format/dateInput.ts';

/**
 * A date filter's day (issue 26 cosmetics). Chromium's `<input type="date">` writes 'mm/dd/yyyy'
 * in every page language (it follows the browser's locale; `lang` does not change it), so outside
 * English this is a text field in the language's own order with that order as its placeholder
 * ('yyyy/mm/dd', 'yyyy. mm. dd.', 'dd/mm/yyyy') and in its accessible name; a whole, valid day
 * (within min / max) reaches `onChange` as 'YYYY-MM-DD', an empty field as ''. English keeps the
 * native input. What is being typed is this field's own text until it is a day.
 */
export function DateField({ label, value, min, max, onChange, testId }: {
  label: string;
  value: string;
  min?: string | undefined;
  max?: string | undefined;
  onChange: (day: string) => void;
  testId?: string;
}) {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  const [text, setText] = useState(() => formatDayInput(value, lang));
  // A day set from outside (Reset, another language) replaces what was typed.
  useEffect(() => {
    if (parseDayInput(text, lang) !== value) setText(formatDayInput(value, lang));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, lang]);
  if (lang === 'en') {
    return <input type="date" lang="en" aria-label={label} value={value} min={min} max={max} onChange={(e) => onChange(e.target.value)} data-testid={testId} />;
  }
  const pattern = dayFormatOf(lang).pattern;
  const day = parseDayInput(text, lang);
  const outside = typeof day === 'string' && day !== '' && ((min !== undefined && min !== '' && day < min) || (max !== undefined && max !== '' && day > max));
  const invalid = text.trim() !== '' && (day === null || outside);
  return (
    <input
      type="text"
      lang={lang === 'jp' ? 'ja' : lang === 'hk' ? 'zh-HK' : lang}
      className="date-field"
      inputMode="numeric"
      autoComplete="off"
      aria-label={`${label} (${pattern})`}
      aria-invalid={invalid || undefined}
      placeholder={pattern}
      value={text}
      maxLength={16}
      data-testid={testId}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        const d = parseDayInput(next, lang);
        if (d === '') onChange('');
        else if (d !== null && !((min && d < min) || (max && d > max))) onChange(d);
      }}
    />
  );
}

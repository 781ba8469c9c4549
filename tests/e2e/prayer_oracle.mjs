// prayer_oracle.mjs — prayer times and qibla bearings from the adhan package (batoulapps/adhan,
// pinned in package.json), an implementation the prayer plugin does not share, for
// tests/integration/prayer_test.cpp.
//
//   node prayer_oracle.mjs '{"now_ms": 1781251200000, "cases": [{"lat": 51.5074, "lon": -0.1278,
//                           "tz": "Europe/London", "method": "isna"}]}'
//
// For each case: the date is today in `tz` at now_ms; the times are adhan's for that date with the
// method's preset (our names mapped as plugins/prayer/README.md says) and its defaults, written
// HH:MM in `tz` (Intl); `next` is adhan's nextPrayer at now_ms, or tomorrow's fajr after isha;
// `qibla` is adhan's Qibla. Prints one JSON array, in the order of the cases.
import adhan from 'adhan';

const presets = {
  isna: () => adhan.CalculationMethod.NorthAmerica(),
  mwl: () => adhan.CalculationMethod.MuslimWorldLeague(),
  egypt: () => adhan.CalculationMethod.Egyptian(),
  karachi: () => adhan.CalculationMethod.Karachi(),
  gulf: () => adhan.CalculationMethod.Qatar(),
  diyanet: () => adhan.CalculationMethod.Turkey(),
  muis: () => adhan.CalculationMethod.Singapore(),
  jakim: () => {
    const p = adhan.CalculationMethod.Other();
    p.fajrAngle = 20;
    p.ishaAngle = 18;
    return p;
  },
};

// The wall clock in `tz`: {date: "YYYY-MM-DD", time: "HH:MM"}.
function local(ms, tz) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    }).formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

// adhan reads the date's year, month and day in the process's zone: run with TZ=UTC and pass
// midnight UTC of the civil date.
process.env.TZ = 'UTC';
const names = ['fajr', 'sunrise', 'dhuhr', 'asr', 'maghrib', 'isha'];
const input = JSON.parse(process.argv[2]);
const out = input.cases.map((c) => {
  const coordinates = new adhan.Coordinates(c.lat, c.lon);
  const day = local(input.now_ms, c.tz).date.split('-').map(Number);
  const date = new Date(day[0], day[1] - 1, day[2]);
  const tomorrow = new Date(day[0], day[1] - 1, day[2] + 1);
  const params = presets[c.method]();
  params.madhab = adhan.Madhab.Shafi;
  const pt = new adhan.PrayerTimes(coordinates, date, params);
  const times = {};
  for (const n of names) times[n] = isNaN(pt[n].getTime()) ? null : local(pt[n].getTime(), c.tz).time;
  const now = new Date(input.now_ms);
  let next = pt.nextPrayer(now);
  let nextTime;
  if (next === adhan.Prayer.None) {
    next = 'fajr';
    nextTime = new adhan.PrayerTimes(coordinates, tomorrow, presets[c.method]()).fajr;
  } else {
    nextTime = pt.timeForPrayer(next);
  }
  return {
    times,
    next: { name: next, time: isNaN(nextTime.getTime()) ? null : local(nextTime.getTime(), c.tz).time },
    qibla: adhan.Qibla(coordinates),
  };
});
process.stdout.write(JSON.stringify(out) + '\n');

// English: every text of the bridge that a parent reads in Home Assistant (entity names, the
// status's message, the reasons, the notifications, the dashboard). The reference: every other
// language has each of these keys (text-shapes.ts types it, a test checks it). `{name}` is filled in.
// Ids, event types and attribute keys are not here: automations name them, in English.

export const en = {
  /** The language's own name, for the log. */
  language: "English",
  entities: {
    minutes_remaining: "Minutes remaining",
    minutes_unlocked: "Minutes unlocked",
    minutes_consumed: "Minutes consumed",
    points: "Points",
    streak: "Streak",
    session_ends_at: "Session ends at",
    session_running: "Session running",
    my_day: "My day",
    period: "Period",
    consumable_today: "Consumable today",
    mandatory_ok: "Mandatory done",
    behaviors: "Behaviors validated",
    screen_time_allowed: "Screen time allowed",
    read_status: "Read status",
    journal: "Journal",
    read_now: "Read now",
    test_fact: "Send a test fact",
  },
  devices: {
    bridge_name: "Reward Facts bridge",
    bridge_model: "Bridge",
    child_model: "Child",
  },
  bridge: {
    status: "Reward Facts status",
    requests_last_minute: "Requests in the last minute",
    budget_per_minute: "Request budget per minute",
    interval_stretch: "Interval stretch",
    last_error: "Last error",
  },
  /** The aliases Assist knows a child's entities by (only where the entity has none of its own). */
  assist: {
    minutes_remaining: "{child}'s minutes left",
    session_running: "{child}'s session",
    streak: "{child}'s streak",
  },
  /** The status's `message`: what its state means to a parent. */
  status: {
    starting: "Starting: the children are being listed.",
    ok: "Everything is read and published.",
    token_invalid: "The API token was refused: create a new one in the app.",
    rate_limited: "Too many requests with this token: the bridge waits and takes less of it.",
    api_unreachable: "The Reward Facts API cannot be reached; the bridge keeps trying.",
    ha_degraded: "Home Assistant refused some updates lately; see the bridge's log.",
    broker_refused: "The MQTT broker refused the bridge's user and password.",
    stopped: "The bridge is stopped.",
  },
  /** Why a child's values cannot be read (`reason`). */
  reasons: {
    rules_not_synced: "no rules synced yet",
    not_covered: "child no longer covered by the token",
    token_rejected: "API token rejected: create a new token in the app",
    api_unreachable: "API unreachable",
    bridge_stopped: "the bridge stopped",
  },
  /** The names of the bridge's own helpers (Settings → Helpers, in their category). */
  helpers: {
    delivery_record: "Reward Facts delivery record ({child})",
    derived_record: "Reward Facts derived facts record ({child})",
    lease: "Reward Facts bridge lease",
  },
  /** Home Assistant's labels and categories (2024.4 and later). */
  organize: {
    /** The label on each child's device (a user's own of that name is used as it is). */
    children_label: "Children",
    /** The category of the bridge's own helpers (its delivery records, its lease). */
    helpers_category: "Reward Facts bridge",
  },
  notifications: {
    token_title: "Reward Facts: API token rejected",
    token_message:
      "The Household Reward Facts API no longer accepts the token (revoked or unknown), since {since}. " +
      "Create a new token in the app (Settings → household → API and home automation), " +
      "then put it in the add-on's `api_token` option (or `REWARD_FACTS_API_TOKEN`) and restart.",
    broker_title: "Reward Facts: the MQTT broker refused the bridge",
    broker_message:
      "The MQTT broker refused the bridge's user and password (since {since}), so no entity can be published. " +
      "Standalone: check MQTT_USERNAME and MQTT_PASSWORD (a user of the broker), then restart the bridge. " +
      "In the add-on: restart it (the Supervisor gives it a user of the Mosquitto broker add-on), " +
      "or set its `publish` option to `rest`.",
    another_bridge_title: "Reward Facts: another bridge already publishes here",
    another_bridge_message:
      "Two Reward Facts bridges are set up for this Home Assistant. The one publishing: {holder}. " +
      "The one waiting, which publishes nothing: {self}. Stop or remove one of them (one bridge per household: " +
      "the add-on, or a standalone bridge). The waiting one takes over by itself a few minutes after the other stops.",
  },
  /**
   * What Assist hears and says out of the box (assist-answers-config.ts): the sentences, `|` between
   * them (`{child}` a first name; the `_i` ones ask for "me"), and the answers.
   */
  voice: {
    minutes:
      "how many minutes does {child} have left|how many minutes has {child} got left|how much [screen] time does {child} have left|how much [screen] time has {child} got left",
    minutes_i:
      "how many minutes do I have left|how many minutes have I got left|how much [screen] time do I have left",
    session: "is {child}'s session running|is {child} in a session|does {child} have a session running",
    session_i: "is my session running|am I in a session",
    streak: "what is {child}'s streak|how long is {child}'s streak",
    streak_i: "what is my streak|how long is my streak",
    why: "why can't {child} use [the] screens|why can {child} not use [the] screens|why can't {child} watch [the] tv|why isn't {child} allowed [to use] [the] screens",
    why_i: "why can't I use [the] screens|why can't I watch [the] tv",
    can: "can {child} use [the] screens|can {child} watch [the] tv|is {child} allowed [to use] [the] screens|may {child} use [the] screens|may {child} watch [the] tv|can {child} play [on the] screens",
    can_i: "can I use [the] screens|can I watch [the] tv|am I allowed [to use] [the] screens",
    unknown: "I don't know {child}.",
    minutes_left: "{child} has {minutes} minutes left.",
    session_on: "Yes, {child}'s session is running, until {time}.",
    session_off: "No, {child} has no session running.",
    streak_days: "{child}'s streak is {days} days.",
    allowed: "Yes, {child} may use screens now: {minutes} minutes left.",
    not_consumable_today: "No: the app does not allow {child} to use minutes today.",
    no_minutes_left: "No: {child} has no minutes left.",
    other_home: "Today is {child}'s day at the other home.",
    not_synced: "{child} is waiting for the app: the rules are not synced yet.",
    unreadable: "{child}'s figures cannot be read right now: {reason}.",
    not_read_yet: "not read yet",
    last_read_at: "They were last read at {time}.",
    stale_rate_limited: "The app asks the bridge to wait before reading again.",
    stale: "At the last reading, at {time}:",
    stale_unreachable: "The app cannot be reached right now.",
    stale_refused: "The app refuses the bridge's token right now.",
    stale_old: "Nothing newer has been read since.",
    automation_name: "Reward Facts: Assist answers about the children",
    summary_name: "Reward Facts: the children's summary",
    summary_description:
      "The children's figures now, per child: minutes left, the session and when it ends, points, streak, the behaviors left today (mandatory first), whether screens are allowed and why not, and when it was read. Give a first name for one child only.",
    summary_child: "A child's first name (leave empty for every child)",
  },
  /** The diary of a child's latest facts (fact-diary.ts): one line a fact. */
  diary: {
    line: "{child}: {fact}",
    behavior_validated: "“{label}” validated",
    behavior_validated_unnamed: "A behavior validated",
    session_started: "A {minutes}-minute session started",
    session_started_unknown: "A session started",
    menu_item_consumed: "“{label}” used",
    menu_item_consumed_unnamed: "A reward used",
    cheer_sent: "A cheer: {cheer}",
    cheer_bravo: "Bravo!",
    cheer_super: "Super!",
    cheer_seen: "Seen",
    none_yet: "No fact yet.",
  },
  dashboard: {
    title: "Rewards",
    demo_title: "Rewards (demo)",
    today_view: "Today",
    minutes_left: "Minutes left",
    session_ends: "Session ends",
    latest_facts: "Latest facts",
    week: "Screen time per day",
    /** While Home Assistant's statistics cannot draw the week yet (screen-time-week.ts). */
    week_filling: "This chart fills in day by day. Until then, the minutes used each day:",
    /** Monday first, comma-separated. */
    weekdays: "Mon,Tue,Wed,Thu,Fri,Sat,Sun",
    points_of: "of",
    points: "points",
    streak_day: "day in a row",
    streak_days: "days in a row",
    today: "Today",
    /** The period of her day (the period sensor's state) in words. */
    period_school: "School day",
    period_holiday: "Holidays",
    period_weekend: "Weekend",
    must: "must",
    behavior_todo: "to do",
    behavior_declared: "done, to check",
    behavior_validated: "validated",
    behavior_rejected: "not this time",
    other_home_title: "At the other home today",
    other_home_body: "{child}'s minutes and points are counted there today: nothing to do here.",
    /** Why screens are not allowed now, on this household's day (screen_time_allowed's why_not). */
    why_not_not_consumable_today:
      "No screens for {child} today: the app does not allow minutes to be used today.",
    why_not_no_minutes_left:
      "{child} has no minutes left for now: a behavior validated in the app earns more.",
    /** The title of a child's box when she cannot be read. */
    child_reason: "{child}: {reason}",
    not_read_yet: "not read yet",
    not_published_yet: "The bridge has not published this child's day yet, or is not running.",
    advice_rules_not_synced:
      "Open the app once on a parent's device; this card changes by itself once the rules arrive.",
    advice_not_covered:
      "Remove the child from the bridge's children, or give it the token of the child's household.",
    advice_token_rejected: "Create a new token in the app and give it to the bridge.",
    advice_api_unreachable: "The bridge keeps trying by itself; its log tells more if this lasts.",
    advice_bridge_stopped: "Start the Reward Facts add-on (or the bridge) again.",
    see_log: "See the bridge's log.",
    /** The title of the bridge's alert on the dashboard, when its status is not `ok`. */
    bridge_alert: "Reward Facts bridge",
    not_published_yet_bridge: "The bridge has not said how it is yet, or is not running.",
  },
};

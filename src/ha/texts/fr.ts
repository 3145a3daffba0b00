import type { Texts } from "./texts.js";

// Français : les textes du pont qu'un parent lit dans Home Assistant (voir en.ts).

export const fr: Texts = {
  language: "Français",
  entities: {
    minutes_remaining: "Minutes restantes",
    minutes_unlocked: "Minutes débloquées",
    minutes_consumed: "Minutes utilisées",
    points: "Points",
    streak: "Série",
    session_ends_at: "Fin de la session",
    session_running: "Session en cours",
    my_day: "Mon jour",
    period: "Période",
    consumable_today: "Utilisable aujourd'hui",
    mandatory_ok: "Essentiels faits",
    behaviors: "Comportements validés",
    read_status: "État de lecture",
    journal: "Journal",
  },
  devices: {
    bridge_name: "Pont Reward Facts",
    bridge_model: "Pont",
    child_model: "Enfant",
  },
  bridge: {
    status: "État de Reward Facts",
    status_on_device: "État",
    requests_last_minute: "Requêtes de la dernière minute",
    budget_per_minute: "Budget de requêtes par minute",
    interval_stretch: "Allongement des intervalles",
    last_error: "Dernière erreur",
  },
  status: {
    starting: "Démarrage : la liste des enfants est en cours de lecture.",
    ok: "Tout est lu et publié.",
    token_invalid: "Le jeton de l'API a été refusé : créez-en un nouveau dans l'application.",
    rate_limited: "Trop de requêtes avec ce jeton : le pont patiente et en prend moins.",
    api_unreachable: "L'API Reward Facts est injoignable ; le pont continue d'essayer.",
    ha_degraded: "Home Assistant a refusé des mises à jour récemment ; voir le journal du pont.",
    broker_refused: "Le broker MQTT a refusé l'utilisateur et le mot de passe du pont.",
    stopped: "Le pont est arrêté.",
  },
  reasons: {
    rules_not_synced: "pas encore de règles synchronisées",
    not_covered: "enfant plus couvert par le jeton",
    token_rejected: "jeton de l'API refusé : créez un nouveau jeton dans l'application",
    api_unreachable: "API injoignable",
    bridge_stopped: "le pont est arrêté",
  },
  notifications: {
    token_title: "Reward Facts : jeton de l'API refusé",
    token_message:
      "L'API Household Reward Facts n'accepte plus le jeton (révoqué ou inconnu) depuis le {since}. " +
      "Créez un nouveau jeton dans l'application (Réglages → foyer → API et domotique), " +
      "puis mettez-le dans l'option `api_token` du module complémentaire (ou `REWARD_FACTS_API_TOKEN`) et redémarrez.",
    broker_title: "Reward Facts : le broker MQTT a refusé le pont",
    broker_message:
      "Le broker MQTT a refusé l'utilisateur et le mot de passe du pont (depuis le {since}) : aucune entité ne peut être publiée. " +
      "Hors module complémentaire : vérifiez MQTT_USERNAME et MQTT_PASSWORD (un utilisateur du broker), puis redémarrez le pont. " +
      "Dans le module complémentaire : redémarrez-le (le Supervisor lui donne un utilisateur du broker Mosquitto), " +
      "ou mettez son option `publish` à `rest`.",
  },
  dashboard: {
    title: "Récompenses",
    demo_title: "Récompenses (démo)",
    today_view: "Aujourd'hui",
    minutes_left: "Minutes restantes",
    session_ends: "Fin de la session",
    latest_facts: "Derniers faits",
    points_of: "sur",
    points: "points",
    streak_day: "jour d'affilée",
    streak_days: "jours d'affilée",
    today: "Aujourd'hui",
    must: "essentiel",
    behavior_todo: "à faire",
    behavior_declared: "fait, à vérifier",
    behavior_validated: "validé",
    behavior_rejected: "pas cette fois",
    other_home_title: "Chez l'autre parent aujourd'hui",
    other_home_body:
      "Les minutes et les points de {child} sont comptés là-bas aujourd'hui : rien à faire ici.",
    /** The title of a child's box when she cannot be read. */
    child_reason: "{child} : {reason}",
    not_read_yet: "pas encore lu",
    not_published_yet: "Le pont n'a pas encore publié la journée de cet enfant, ou ne tourne pas.",
    advice_rules_not_synced:
      "Ouvrez une fois l'application sur l'appareil d'un parent ; cette carte change d'elle-même quand les règles arrivent.",
    advice_not_covered:
      "Retirez l'enfant des enfants suivis par le pont, ou donnez-lui le jeton du foyer de l'enfant.",
    advice_token_rejected: "Créez un nouveau jeton dans l'application et donnez-le au pont.",
    advice_api_unreachable: "Le pont continue d'essayer de lui-même ; son journal en dit plus si cela dure.",
    advice_bridge_stopped: "Redémarrez le module complémentaire Reward Facts (ou le pont).",
    see_log: "Voir le journal du pont.",
  },
};

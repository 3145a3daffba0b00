import type { BlueprintTexts, Texts } from "./text-shapes.js";

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
    screen_time_allowed: "Écrans autorisés",
    read_status: "État de lecture",
    journal: "Journal",
    read_now: "Lire maintenant",
    test_fact: "Envoyer un fait de test",
  },
  devices: {
    bridge_name: "Pont Reward Facts",
    bridge_model: "Pont",
    child_model: "Enfant",
  },
  bridge: {
    status: "État de Reward Facts",
    requests_last_minute: "Requêtes de la dernière minute",
    budget_per_minute: "Budget de requêtes par minute",
    interval_stretch: "Allongement des intervalles",
    last_error: "Dernière erreur",
  },
  /** The aliases Assist knows a child's entities by (only where the entity has none of its own). */
  assist: {
    minutes_remaining: "minutes restantes de {child}",
    session_running: "session de {child}",
    streak: "série de {child}",
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
  helpers: {
    delivery_record: "Registre de remise des faits Reward Facts ({child})",
    derived_record: "Registre des faits déduits Reward Facts ({child})",
    lease: "Bail du pont Reward Facts",
  },
  organize: {
    children_label: "Enfants",
    helpers_category: "Pont Reward Facts",
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
    another_bridge_title: "Reward Facts : un autre pont publie déjà ici",
    another_bridge_message:
      "Deux ponts Reward Facts sont installés pour ce Home Assistant. Celui qui publie : {holder}. " +
      "Celui qui attend, sans rien publier : {self}. Arrêtez ou retirez l'un des deux (un pont par foyer : " +
      "le module complémentaire, ou un pont autonome). Celui qui attend prend le relais de lui-même quelques minutes après l'arrêt de l'autre.",
  },
  voice: {
    minutes:
      "combien de minutes reste-t-il à {child}|il reste combien de minutes à {child}|combien de temps d'écran reste-t-il à {child}|combien de minutes a encore {child}",
    minutes_i:
      "combien de minutes me reste-t-il|il me reste combien de minutes|combien de temps d'écran me reste-t-il",
    session:
      "est-ce que la session de {child} est en cours|la session de {child} est-elle en cours|est-ce que {child} a une session en cours",
    session_i: "est-ce que ma session est en cours|ma session est-elle en cours",
    streak: "quelle est la série de {child}|combien de jours d'affilée pour {child}",
    streak_i: "quelle est ma série|combien de jours d'affilée pour moi",
    why: "pourquoi {child} ne peut-elle pas utiliser les écrans|pourquoi {child} ne peut-il pas utiliser les écrans|pourquoi {child} ne peut pas regarder la télé|pourquoi {child} n'a pas droit aux écrans",
    why_i: "pourquoi je ne peux pas utiliser les écrans|pourquoi je ne peux pas regarder la télé",
    can: "{child} peut-elle regarder la télé|{child} peut-il regarder la télé|est-ce que {child} peut regarder la télé|{child} peut-elle utiliser les écrans|{child} peut-il utiliser les écrans|est-ce que {child} peut utiliser les écrans",
    can_i:
      "est-ce que je peux regarder la télé|je peux regarder la télé|est-ce que je peux utiliser les écrans",
    unknown: "Je ne connais pas {child}.",
    minutes_left: "Il reste {minutes} minutes à {child}.",
    session_on: "Oui, la session de {child} est en cours, jusqu'à {time}.",
    session_off: "Non, {child} n'a pas de session en cours.",
    streak_days: "La série de {child} est de {days} jours.",
    allowed: "Oui, {child} peut utiliser les écrans maintenant : il reste {minutes} minutes.",
    not_consumable_today: "Non : l'application ne permet pas à {child} d'utiliser des minutes aujourd'hui.",
    no_minutes_left: "Non : {child} n'a plus de minutes.",
    other_home: "Aujourd'hui, {child} est chez l'autre parent.",
    not_synced: "{child} attend l'application : les règles ne sont pas encore synchronisées.",
    unreadable: "Les chiffres de {child} ne peuvent pas être lus pour l'instant : {reason}.",
    not_read_yet: "pas encore lus",
    last_read_at: "Ils ont été lus pour la dernière fois à {time}.",
    stale_rate_limited: "L'application demande au pont d'attendre avant de lire à nouveau.",
    stale: "Au dernier relevé, à {time} :",
    stale_unreachable: "L'application est injoignable pour l'instant.",
    stale_refused: "L'application refuse le jeton du pont pour l'instant.",
    stale_old: "Rien de plus récent n'a été lu depuis.",
    automation_name: "Reward Facts : réponses d'Assist sur les enfants",
    summary_name: "Reward Facts : le résumé des enfants",
    summary_description:
      "Les chiffres des enfants en ce moment, par enfant : minutes restantes, la session et sa fin, les points, la série, les comportements qui restent aujourd'hui (les essentiels d'abord), si les écrans sont permis et sinon pourquoi, et quand tout cela a été lu. Donnez un prénom pour un seul enfant.",
    summary_child: "Le prénom d'un enfant (vide pour tous les enfants)",
  },
  diary: {
    line: "{child} : {fact}",
    behavior_validated: "« {label} » validé",
    behavior_validated_unnamed: "Un comportement validé",
    session_started: "Une session de {minutes} minutes commencée",
    session_started_unknown: "Une session commencée",
    menu_item_consumed: "« {label} » utilisé",
    menu_item_consumed_unnamed: "Une récompense utilisée",
    cheer_sent: "Un encouragement : {cheer}",
    cheer_bravo: "Bravo !",
    cheer_super: "Super !",
    cheer_seen: "Vu",
    none_yet: "Pas encore de fait.",
  },
  dashboard: {
    title: "Récompenses",
    demo_title: "Récompenses (démo)",
    today_view: "Aujourd'hui",
    minutes_left: "Minutes restantes",
    session_ends: "Fin de la session",
    latest_facts: "Derniers faits",
    week: "Temps d'écran par jour",
    week_filling:
      "Ce graphique se remplit jour après jour. En attendant, les minutes utilisées chaque jour :",
    weekdays: "lun.,mar.,mer.,jeu.,ven.,sam.,dim.",
    points_of: "sur",
    points: "points",
    streak_day: "jour d'affilée",
    streak_days: "jours d'affilée",
    today: "Aujourd'hui",
    period_school: "Jour d'école",
    period_holiday: "Vacances",
    period_weekend: "Week-end",
    must: "essentiel",
    behavior_todo: "à faire",
    behavior_declared: "fait, à vérifier",
    behavior_validated: "validé",
    behavior_rejected: "pas cette fois",
    other_home_title: "Chez l'autre parent aujourd'hui",
    other_home_body:
      "Les minutes et les points de {child} sont comptés là-bas aujourd'hui : rien à faire ici.",
    why_not_not_consumable_today:
      "Pas d'écrans pour {child} aujourd'hui : l'application ne permet pas d'utiliser des minutes aujourd'hui.",
    why_not_no_minutes_left:
      "{child} n'a plus de minutes pour l'instant : un comportement validé dans l'application en fait gagner.",
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
    bridge_alert: "Pont Reward Facts",
    not_published_yet_bridge: "Le pont n'a pas encore dit comment il va, ou ne tourne pas.",
  },
};

/**
 * The blueprints in French, by file and by the path of each text in it (npm run blueprints writes
 * them from the English ones, addon/blueprints/automation/reward_facts/).
 */
/** Every blueprint asks for the child's device alike. */
const childInput = {
  "blueprint.input.child.name": "L'enfant",
  "blueprint.input.child.description":
    "L'appareil d'un enfant, tel que le pont le crée quand il publie par MQTT.",
};

export const frBlueprints: BlueprintTexts = {
  "assist_answers.yaml": {
    "blueprint.name": "Reward Facts - réponses d'Assist sur les enfants",
    "blueprint.description":
      "Permet à Assist (à la voix ou par écrit) de répondre à « Combien de minutes reste-t-il à Léa ? », « Est-ce " +
      "que la session de Léa est en cours ? », « Quelle est la série de Léa ? » et « Pourquoi Léa ne peut-elle pas " +
      "utiliser les écrans ? » avec les chiffres du moment des " +
      "enfants que le pont publie, quelle que soit sa manière de publier. Créez une automatisation à partir de " +
      "lui ; elle répond pour chaque enfant.",
    "triggers.0.command.0": "combien de minutes reste-t-il à {child}",
    "triggers.0.command.1": "il reste combien de minutes à {child}",
    "triggers.0.command.2": "combien de temps d'écran reste-t-il à {child}",
    "triggers.0.command.3": "combien de minutes a encore {child}",
    "triggers.1.command.0": "est-ce que la session de {child} est en cours",
    "triggers.1.command.1": "la session de {child} est-elle en cours",
    "triggers.1.command.2": "est-ce que {child} a une session en cours",
    "triggers.2.command.0": "quelle est la série de {child}",
    "triggers.2.command.1": "combien de jours d'affilée pour {child}",
    "triggers.3.command.0": "pourquoi {child} ne peut-elle pas utiliser les écrans",
    "triggers.3.command.1": "pourquoi {child} ne peut-il pas utiliser les écrans",
    "triggers.3.command.2": "pourquoi {child} ne peut pas regarder la télé",
    "triggers.3.command.3": "pourquoi {child} n'a pas droit aux écrans",
    "variables.answer":
      "{% if not found.name %}Je ne connais pas {{ trigger.slots.child }}. " +
      "{% elif trigger.id == 'minutes' %}Il reste {{ states(found.minutes) }} minutes à {{ found.name }}. " +
      "{% elif trigger.id == 'session' %}{% if is_state(found.session, 'on') %}Oui, la session de {{ found.name }} " +
      "est en cours, jusqu'à {{ as_timestamp(states(found.ends), 0) | timestamp_custom('%H:%M') }}.{% else %}Non, " +
      "{{ found.name }} n'a pas de session en cours.{% endif %} " +
      "{% elif trigger.id == 'why' %}{% set why = state_attr(found.allowed, 'why_not') %}" +
      "{% if is_state(found.allowed, 'on') %}{{ found.name }} peut utiliser les écrans en ce moment." +
      "{% elif why == 'other_household_day' %}Aujourd'hui, {{ found.name }} est dans l'autre maison." +
      "{% elif why == 'not_consumable_today' %}L'application ne permet pas à {{ found.name }} d'utiliser des " +
      "minutes aujourd'hui.{% elif why == 'no_minutes_left' %}{{ found.name }} n'a plus de minutes." +
      "{% else %}Je ne peux pas le dire pour {{ found.name }} pour l'instant.{% endif %} " +
      "{% else %}La série de {{ found.name }} est de {{ states(found.streak) }} jours.{% endif %}",
  },
  "celebrate.yaml": {
    "blueprint.name": "Reward Facts - fêter un comportement validé ou un encouragement",
    "blueprint.description":
      "Lance vos actions quand un parent valide un comportement de l'enfant ou lui envoie un encouragement dans " +
      "l'application : l'annoncer sur une enceinte, prévenir un téléphone, faire clignoter une lampe. Seulement les " +
      "jours de ce foyer (« mon jour » de l'enfant est activé). Les actions peuvent utiliser `message`, " +
      "`child_name` et `event` (toutes les données du reward_facts_event : type, label, cheer…).",
    ...childInput,
    "blueprint.input.kinds.name": "Ce qu'il faut fêter",
    "blueprint.input.kinds.selector.select.options.0.label": "Un comportement validé",
    "blueprint.input.kinds.selector.select.options.1.label": "Un encouragement envoyé (bravo, super, vu)",
    "blueprint.input.include_late.name": "Fêter aussi les faits en retard",
    "blueprint.input.include_late.description":
      "Désactivé : les faits marqués replayed (lus en retard, après un premier démarrage ou une panne : à 20 h, " +
      "les encouragements du matin) ou redelivered (peut-être déjà envoyés une fois, après une panne de Home " +
      "Assistant pendant leur envoi) ne sont pas fêtés à nouveau.",
    "blueprint.input.celebrate_actions.name": "Actions",
    "blueprint.input.celebrate_actions.description":
      "Par exemple une annonce vocale (TTS) avec le message {{ message }}.",
    "variables.message":
      "{% set data = trigger.event.data %} " +
      "{% if data.type == 'cheer_sent' %}{{ data.child_name }}, tu as reçu un encouragement : {{ data.get('cheer') }} ! " +
      "{% elif data.get('label') %}Bravo {{ data.child_name }} : {{ data.get('label') }} ! " +
      "{% else %}Bravo {{ data.child_name }} !{% endif %}",
  },
  "minutes_low.yaml": {
    "blueprint.name": "Reward Facts - annoncer qu'il reste peu de minutes",
    "blueprint.description":
      "Lance vos actions quand la session de l'enfant atteint un des seuils de minutes restantes du pont (son " +
      "option minutes_low_thresholds, 10 et 5 par défaut) : l'annoncer sur une enceinte ou la tablette de " +
      "l'enfant, faire clignoter une lampe. Les actions peuvent utiliser `message`, `child_name` et " +
      "`minutes_remaining`.",
    ...childInput,
    "blueprint.input.announce_actions.name": "Actions",
    "blueprint.input.announce_actions.description":
      "Par exemple une annonce vocale (TTS) sur l'enceinte de l'enfant avec le message {{ message }}.",
    "variables.message":
      "{{ trigger.event.data.child_name }}, il te reste {{ trigger.event.data.minutes_remaining }} minutes.",
  },
  "session_ending_warning.yaml": {
    "blueprint.name": "Reward Facts - prévenir avant la fin d'une session",
    "blueprint.description":
      "Lance vos actions quelques minutes avant la fin de la session de récompense d'un enfant : une notification, " +
      "un rappel vocal, une lampe qui clignote. Seulement les jours de ce foyer (« mon jour » de l'enfant est " +
      "activé). Les actions peuvent utiliser `child_name` et `minutes_left`.",
    ...childInput,
    "blueprint.input.minutes_before.name": "Minutes avant la fin",
    "blueprint.input.warning_actions.name": "Actions",
    "blueprint.input.warning_actions.description":
      "Que faire, par exemple prévenir un téléphone : Plus que {{ minutes_left }} minutes, {{ child_name }} !",
  },
  "session_over.yaml": {
    "blueprint.name": "Reward Facts - quand la session est finie",
    "blueprint.description":
      "Quand la session de récompense de l'enfant se termine (le pont émet session_ended à la fin annoncée par " +
      "l'application, aussi après une session prolongée ou arrêtée plus tôt), éteint les appareils choisis (une " +
      "télévision, la prise connectée d'une console…) et lance vos actions. Les actions peuvent utiliser " +
      "`child_name` et `session_minutes`.",
    ...childInput,
    "blueprint.input.devices.name": "Appareils à éteindre",
    "blueprint.input.over_actions.name": "Autres actions",
    "blueprint.input.over_actions.description":
      "Par exemple une annonce « l'écran, c'est fini, {{ child_name }} ».",
  },
  "traffic_light.yaml": {
    "blueprint.name": "Reward Facts - lampe feu tricolore selon les minutes restantes",
    "blueprint.description":
      "Colore une lampe selon les minutes restantes d'un enfant : vert quand il en reste beaucoup, orange sous le " +
      "premier seuil, rouge sous le second. Seulement les jours de ce foyer (« mon jour » de l'enfant est " +
      "activé) ; les jours de l'autre foyer, la lampe est laissée telle quelle.",
    ...childInput,
    "blueprint.input.lamp.name": "Lampe",
    "blueprint.input.lamp.description": "Une lampe qui peut afficher des couleurs.",
    "blueprint.input.orange_below.name": "Orange en dessous de (minutes)",
    "blueprint.input.red_below.name": "Rouge en dessous de (minutes)",
    "blueprint.input.brightness.name": "Luminosité",
  },
  "validate_in_app.yaml": {
    "blueprint.name": "Reward Facts - demander à un parent de valider un comportement déclaré",
    "blueprint.description":
      "Lance vos actions quand l'enfant déclare un comportement fait dans l'application, pour qu'un parent le " +
      "vérifie et le valide là-bas (le pont lit l'application, il ne peut rien valider) : une notification sur " +
      "les téléphones des parents, par exemple. Une fois ce comportement validé ou refusé dans l'application, la " +
      "notification s'en va d'elle-même, sur chaque téléphone. Les actions peuvent utiliser `message`, " +
      "`child_name`, `label`, `tag` et `event` (toutes les données du reward_facts_event).",
    ...childInput,
    "blueprint.input.phones.name": "Téléphones",
    "blueprint.input.phones.description":
      "Les actions de notification des téléphones des parents (celles de l'application Home Assistant, comme " +
      "notify.mobile_app_pixel_8), une par ligne. Chacun reçoit la notification, et la perd une fois le " +
      "comportement validé ou refusé. Aucun : seules vos actions ci-dessous s'exécutent.",
    "blueprint.input.app_link.name": "Lien vers l'application",
    "blueprint.input.app_link.description":
      "Une adresse qui ouvre l'application de récompenses (un lien qu'elle donne, ou son adresse web) : toucher " +
      "la notification sur un téléphone l'ouvre. Vide : la notification ouvre Home Assistant.",
    "blueprint.input.notify_actions.name": "Actions",
    "blueprint.input.notify_actions.description":
      "Par exemple une notification avec le message {{ message }}. Celle qui porte l'identifiant de " +
      "notification (ou le tag) {{ tag }} s'en va d'elle-même une fois le comportement validé ou refusé.",
    "variables.message":
      "{{ trigger.event.data.child_name }} dit avoir fait « {{ trigger.event.data.label }} » : vérifiez-le et " +
      "validez-le dans l'application.",
  },
  "weekly_digest.yaml": {
    "blueprint.name": "Reward Facts - le bilan de la semaine",
    "blueprint.description":
      "Envoie la semaine de chaque enfant, les jours et à l'heure choisis : son temps d'écran des 7 derniers jours " +
      "(aujourd'hui compris) à côté des 7 jours d'avant, sa série du moment et les comportements validés ces 7 " +
      "derniers jours. Les chiffres viennent des statistiques à long terme de Home Assistant sur ses minutes " +
      "utilisées et ses comportements validés chaque jour (une validation annulée dans l'application compte deux " +
      "fois ceux de ce jour-là), jusqu'à la dernière heure pleine ; une semaine que les statistiques n'ont pas " +
      "encore est dite telle, pas comptée comme 0. Pour chaque enfant que le pont publie, des deux manières de " +
      "publier. Les actions peuvent utiliser `message` et `title`. Demande Home Assistant 2025.6 ou plus récent " +
      "(son action recorder.get_statistics).",
    "blueprint.input.weekdays.name": "Jours",
    "blueprint.input.weekdays.description": "Les jours de la semaine où il est envoyé.",
    "blueprint.input.weekdays.selector.select.options.0.label": "Lundi",
    "blueprint.input.weekdays.selector.select.options.1.label": "Mardi",
    "blueprint.input.weekdays.selector.select.options.2.label": "Mercredi",
    "blueprint.input.weekdays.selector.select.options.3.label": "Jeudi",
    "blueprint.input.weekdays.selector.select.options.4.label": "Vendredi",
    "blueprint.input.weekdays.selector.select.options.5.label": "Samedi",
    "blueprint.input.weekdays.selector.select.options.6.label": "Dimanche",
    "blueprint.input.time.name": "Heure",
    "blueprint.input.time.description":
      "L'heure à laquelle il est envoyé, dans le fuseau horaire de Home Assistant.",
    "blueprint.input.phones.name": "Téléphones",
    "blueprint.input.phones.description":
      "Les actions de notification des téléphones des parents (celles de l'application Home Assistant, comme " +
      "notify.mobile_app_pixel_8), une par ligne. Chacun reçoit le bilan. Aucun : seules vos actions ci-dessous " +
      "s'exécutent.",
    "blueprint.input.digest_actions.name": "Actions",
    "blueprint.input.digest_actions.description":
      "Par exemple un résumé vocal avec le message {{ message }}. Par défaut, une notification dans Home Assistant.",
    "variables.title": "Reward Facts - la semaine",
    "actions.1.variables.message":
      "{% set lines = namespace(all=[]) %}" +
      "{% for child in children %}{% set w = week[child.minutes] %}" +
      "{% if w.now_days %}" +
      "{% set line = child.name ~ ' : ' ~ w.now ~ \" min d'écran ces 7 derniers jours\" ~ (' (' ~ w.now_days ~ " +
      "(' jour enregistré)' if w.now_days == 1 else ' jours enregistrés)') if w.now_days < 7 else '') %}" +
      "{% set line = line ~ (', ' ~ w.before ~ \" min les 7 jours d'avant\" ~ (' (' ~ w.before_days ~ " +
      "(' jour enregistré)' if w.before_days == 1 else ' jours enregistrés)') if w.before_days < 7 else '') " +
      "if w.before_days else \", rien d'enregistré les 7 jours d'avant\") %}" +
      '{% else %}{% set line = child.name ~ " : pas encore de temps d\'écran enregistré" %}{% endif %}' +
      "{% if w.streak | is_number %}{% set line = line ~ ' ; une série de ' ~ (w.streak | int) ~ " +
      "(' jour' if w.streak | int == 1 else ' jours') %}{% endif %}" +
      "{% if w.behavior_days %}{% set line = line ~ ' ; ' ~ w.behaviors ~ " +
      "(' comportement validé' if w.behaviors == 1 else ' comportements validés') %}{% endif %}" +
      "{% set lines.all = lines.all + [line ~ '.'] %}" +
      "{% endfor %}" +
      "{{ lines.all | join('\\n') }}",
  },
};

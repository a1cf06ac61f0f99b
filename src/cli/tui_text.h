/* Every text of the terminal game in English and Simplified Chinese. */
#ifndef RV_TUI_TEXT_H
#define RV_TUI_TEXT_H

typedef enum tui_lang { TUI_EN = 0, TUI_ZH = 1 } tui_lang;

typedef enum tui_msg {
    M_TITLE_GOMOKU, M_TITLE_RENJU, M_TITLE_REVERSI, M_TITLE_STANDARD, M_TITLE_CARO,
    M_BLACK, M_WHITE, M_TO_MOVE, M_YOUR_MOVE, M_AI_PLAYS, M_HINT, M_THINKING,
    M_RESULT, M_WINS, M_DRAW, M_FIVE, M_RESIGNED, M_FORBIDDEN_LOSS, M_DISCS,
    M_FORBIDDEN, M_OCCUPIED, M_OFFBOARD, M_NOFLIP, M_MUSTPLAY, M_NOTAMOVE, M_OVER,
    M_NOUNDO, M_UNDONE, M_SAVED, M_LOADED, M_CANNOT_SAVE, M_CANNOT_LOAD, M_NEW,
    M_UNKNOWN_CMD, M_HELP, M_LEGEND_RENJU, M_LEGEND_REVERSI, M_LEGEND_LAST, M_PASSES,
    M_DOUBLE_THREE, M_DOUBLE_FOUR, M_OVERLINE, M_BYE, M_COUNT
} tui_msg;

/* The text of a message in a language (printf format where it takes arguments). */
const char *tui_text(tui_lang lang, tui_msg m);

/* The language from --lang or the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). */
tui_lang tui_lang_from_env(void);

#endif

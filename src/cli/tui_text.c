/* The terminal game's texts (see tui_text.h). */
#include "cli/tui_text.h"

#include <stdlib.h>
#include <string.h>

static const char *const texts[M_COUNT][2] = {
    [M_TITLE_GOMOKU] = {"Gomoku (freestyle)", "五子棋（自由）"},
    [M_TITLE_RENJU] = {"Renju", "连珠"},
    [M_TITLE_REVERSI] = {"Reversi", "黑白棋"},
    [M_TITLE_STANDARD] = {"Gomoku (exactly five)", "五子棋（恰好五连）"},
    [M_TITLE_CARO] = {"Caro", "Caro"},
    [M_BLACK] = {"black", "黑方"},
    [M_WHITE] = {"white", "白方"},
    [M_TO_MOVE] = {"%s to move", "轮到%s"},
    [M_YOUR_MOVE] = {"%s> ", "%s> "},
    [M_AI_PLAYS] = {"%s (computer) plays %s", "%s（电脑）下 %s"},
    [M_HINT] = {"hint: %s", "提示：%s"},
    [M_THINKING] = {"thinking...", "思考中……"},
    [M_RESULT] = {"game over: %s", "对局结束：%s"},
    [M_WINS] = {"%s wins", "%s胜"},
    [M_DRAW] = {"draw", "和棋"},
    [M_FIVE] = {"five %s", "五连 %s"},
    [M_RESIGNED] = {"%s resigned", "%s认输"},
    [M_FORBIDDEN_LOSS] = {"black's forbidden move %s (%s)", "黑方禁手 %s（%s）"},
    [M_DISCS] = {"%d-%d", "%d-%d"},
    [M_FORBIDDEN] = {"forbidden move %s: %s (black may not play it under Renju)",
                     "%s 是禁手：%s（连珠规则下黑方不能下）"},
    [M_OCCUPIED] = {"illegal move %s: the point is taken", "%s 不合法：该点已有棋子"},
    [M_OFFBOARD] = {"illegal move %s: off the board", "%s 不合法：在棋盘外"},
    [M_NOFLIP] = {"illegal move %s: it flips nothing", "%s 不合法：不能翻转任何棋子"},
    [M_MUSTPLAY] = {"you cannot pass: a move is possible", "不能弃权：还有可下的位置"},
    [M_NOTAMOVE] = {"'%s' is not a move or a command (type help)", "“%s”不是着法也不是命令（输入 help）"},
    [M_OVER] = {"the game is over (new, undo or quit)", "对局已结束（new、undo 或 quit）"},
    [M_NOUNDO] = {"nothing to undo", "没有可悔的棋"},
    [M_UNDONE] = {"move taken back", "已悔棋"},
    [M_SAVED] = {"saved to %s", "已保存到 %s"},
    [M_LOADED] = {"loaded %s", "已载入 %s"},
    [M_CANNOT_SAVE] = {"cannot save to %s", "无法保存到 %s"},
    [M_CANNOT_LOAD] = {"cannot load %s: %s", "无法载入 %s：%s"},
    [M_NEW] = {"new game", "新对局"},
    [M_UNKNOWN_CMD] = {"unknown command '%s' (type help)", "未知命令“%s”（输入 help）"},
    [M_HELP] = {"commands:\n"
                "  h8, d3 ...   play a move (Reversi: pass when you have none)\n"
                "  undo         take back your last move\n"
                "  hint         ask the computer for a move\n"
                "  save FILE    save the game (.psq or a move list; .ggf or a transcript)\n"
                "  load FILE    load a game saved like that\n"
                "  new          start again\n"
                "  quit         leave\n"
                "  help         this list",
                "命令：\n"
                "  h8、d3 ……    落子（黑白棋无处可下时输入 pass）\n"
                "  undo         悔棋\n"
                "  hint         请电脑提示一手\n"
                "  save 文件    保存对局（.psq 或着法列表；.ggf 或棋谱）\n"
                "  load 文件    载入这样保存的对局\n"
                "  new          重新开始\n"
                "  quit         退出\n"
                "  help         显示本帮助"},
    [M_LEGEND_RENJU] = {"# forbidden for black", "# 黑方禁手点"},
    [M_LEGEND_REVERSI] = {"* legal move", "* 可下的位置"},
    [M_LEGEND_LAST] = {"[ ] last move", "[ ] 最后一手"},
    [M_PASSES] = {"%s has no move and passes", "%s无处可下，弃权"},
    [M_DOUBLE_THREE] = {"double-three", "三三禁手"},
    [M_DOUBLE_FOUR] = {"double-four", "四四禁手"},
    [M_OVERLINE] = {"overline", "长连禁手"},
    [M_BYE] = {"bye", "再见"},
};

const char *tui_text(tui_lang lang, tui_msg m) {
    if (m < 0 || m >= M_COUNT) return "";
    const char *t = texts[m][lang];
    return t ? t : texts[m][0];
}

tui_lang tui_lang_from_env(void) {
    const char *vars[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    for (int i = 0; i < 4; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return strncmp(v, "zh", 2) == 0 ? TUI_ZH : TUI_EN;
    }
    return TUI_EN;
}

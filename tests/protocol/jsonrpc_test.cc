// JSON-RPC message validation, construction, params access; LSP helpers; log levels.
#include "jsonrpc.h"

#include <gtest/gtest.h>

#include "logger.h"
#include "lsp.h"

namespace tvmls::protocol {
namespace {

constexpr int kParse = -32700;
constexpr int kInvalid = -32600;

ParseResult Parse(const std::string& text) { return ParseMessage(text); }

void ExpectRejected(const std::string& text, int code, const json& id) {
  SCOPED_TRACE(text);
  ParseResult r = Parse(text);
  ASSERT_FALSE(r.message.has_value());
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->code, code);
  EXPECT_EQ(r.error_id, id);
  EXPECT_FALSE(r.error->message.empty());
}

TEST(ParseMessage, NestingIsLimitedWhileParsing) {
  auto nested = [](int depth, const std::string& inner) {
    return std::string(static_cast<size_t>(depth), '[') + inner + std::string(static_cast<size_t>(depth), ']');
  };
  // At the limit: parsed (params nest one level inside the message object).
  std::string ok = R"({"jsonrpc":"2.0","id":1,"method":"m","params":)" + nested(kMaxJsonDepth - 1, "") + "}";
  EXPECT_FALSE(ParseMessage(ok).error) << ParseMessage(ok).error->message;
  std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"m","params":)" + nested(kMaxJsonDepth, "") + "}";
  ParseResult r = ParseMessage(deep);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->code, static_cast<int>(ErrorCode::kInvalidRequest));
  EXPECT_NE(r.error->message.find("nested deeper than 64"), std::string::npos);
  // Brackets inside strings, escaped quotes included, do not count.
  std::string quoted = R"({"jsonrpc":"2.0","method":"m","params":{"t":")" + std::string(200, '[') + R"(\"[["}})";
  EXPECT_FALSE(ParseMessage(quoted).error) << ParseMessage(quoted).error->message;
  // Millions of levels: refused without building a deep tree.
  EXPECT_TRUE(ParseMessage(nested(5'000'000, "")).error);
}

TEST(ParseMessage, Request) {
  ParseResult r = Parse(R"({"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"a":1}})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(r.message->kind, Message::Kind::kRequest);
  EXPECT_EQ(r.message->id, 3);
  EXPECT_EQ(r.message->method, "textDocument/hover");
  EXPECT_EQ(r.message->params, json({{"a", 1}}));
}

TEST(ParseMessage, StringIdAndArrayParamsAndNullParams) {
  ParseResult r = Parse(R"({"jsonrpc":"2.0","id":"x-1","method":"m","params":[1,2]})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(r.message->id, "x-1");
  EXPECT_TRUE(r.message->params.is_array());
  r = Parse(R"({"jsonrpc":"2.0","id":1,"method":"shutdown","params":null})");
  ASSERT_TRUE(r.message);
  EXPECT_TRUE(r.message->params.is_null());
}

TEST(ParseMessage, Notification) {
  ParseResult r = Parse(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(r.message->kind, Message::Kind::kNotification);
}

TEST(ParseMessage, Responses) {
  ParseResult r = Parse(R"({"jsonrpc":"2.0","id":1,"result":null})");
  ASSERT_TRUE(r.message);
  EXPECT_EQ(r.message->kind, Message::Kind::kResponse);
  EXPECT_FALSE(r.message->error);
  r = Parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad","data":[1]}})");
  ASSERT_TRUE(r.message);
  ASSERT_TRUE(r.message->error);
  EXPECT_EQ(r.message->error->code, -32700);
  EXPECT_EQ(r.message->error->data, json::array({1}));
}

TEST(ParseMessage, ErrorCodesOfAnySignInTheIntRange) {
  // Non-negative numbers come out of the JSON parser as unsigned: 0 and positive
  // (application-defined) codes are valid error codes all the same.
  for (const char* code : {"0", "1", "2147483647", "-1", "-2147483648", "-32601"}) {
    ParseResult r = Parse(std::string(R"({"jsonrpc":"2.0","id":5,"error":{"code":)") + code +
                          R"(,"message":"m"}})");
    ASSERT_TRUE(r.message) << code;
    ASSERT_TRUE(r.message->error) << code;
    EXPECT_EQ(r.message->error->code, std::stoll(code));
  }
  for (const char* code : {"2147483648", "-2147483649", "18446744073709551615", "1.5"}) {
    ExpectRejected(std::string(R"({"jsonrpc":"2.0","id":5,"error":{"code":)") + code +
                       R"(,"message":"m"}})",
                   kInvalid, nullptr);
  }
}

TEST(ParseMessage, InvalidJsonIsParseErrorWithNullId) {
  ExpectRejected(R"({"jsonrpc":"2.0","id":1,"method":)", kParse, nullptr);
  ExpectRejected("", kParse, nullptr);
  ExpectRejected("\"\xff\"", kParse, nullptr);  // Invalid UTF-8.
}

TEST(ParseMessage, NumberOutOfRangeIsParseErrorWithNullId) {
  // nlohmann throws out_of_range, not parse_error, for a number beyond the double range; it once
  // ended the server (fuzz_lsp).
  ExpectRejected(R"({"jsonrpc":"2.0","id":1,"method":"m","params":1e999})", kParse, nullptr);
  ExpectRejected(R"({"jsonrpc":"2.0","id":1e999,"method":"m"})", kParse, nullptr);
  ExpectRejected("-1e400", kParse, nullptr);
}

TEST(ParseMessage, NotAnObject) {
  ExpectRejected("42", kInvalid, nullptr);
  ExpectRejected(R"("text")", kInvalid, nullptr);
  ExpectRejected("null", kInvalid, nullptr);
}

TEST(ParseMessage, BatchIsRefused) {
  ExpectRejected(R"([{"jsonrpc":"2.0","id":1,"method":"a"}])", kInvalid, nullptr);
  ExpectRejected("[]", kInvalid, nullptr);
}

TEST(ParseMessage, BadVersionEchoesTheId) {
  ExpectRejected(R"({"jsonrpc":"1.0","id":5,"method":"a"})", kInvalid, 5);
  ExpectRejected(R"({"id":"s","method":"a"})", kInvalid, "s");
  ExpectRejected(R"({"jsonrpc":2.0,"id":5,"method":"a"})", kInvalid, 5);
}

TEST(ParseMessage, IdOfWrongTypeGetsNullId) {
  ExpectRejected(R"({"jsonrpc":"2.0","id":true,"method":"a"})", kInvalid, nullptr);
  ExpectRejected(R"({"jsonrpc":"2.0","id":1.5,"method":"a"})", kInvalid, nullptr);
  ExpectRejected(R"({"jsonrpc":"2.0","id":{"x":1},"method":"a"})", kInvalid, nullptr);
  ExpectRejected(R"({"jsonrpc":"2.0","id":null,"method":"a"})", kInvalid, nullptr);
}

TEST(ParseMessage, MethodNotAString) {
  ExpectRejected(R"({"jsonrpc":"2.0","id":3,"method":7})", kInvalid, 3);
  ExpectRejected(R"({"jsonrpc":"2.0","method":null})", kInvalid, nullptr);
}

TEST(ParseMessage, ParamsNotStructured) {
  ExpectRejected(R"({"jsonrpc":"2.0","id":4,"method":"a","params":5})", kInvalid, 4);
  ExpectRejected(R"({"jsonrpc":"2.0","method":"a","params":"x"})", kInvalid, nullptr);
}

TEST(ParseMessage, NeitherRequestNorResponse) {
  ExpectRejected(R"({"jsonrpc":"2.0","id":9})", kInvalid, 9);
  ExpectRejected(R"({"jsonrpc":"2.0"})", kInvalid, nullptr);
}

TEST(ParseMessage, MethodWithResult) {
  ExpectRejected(R"({"jsonrpc":"2.0","id":2,"method":"a","result":1})", kInvalid, 2);
}

TEST(ParseMessage, MalformedResponsesNeverEchoTheId) {
  ExpectRejected(R"({"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}})", kInvalid, nullptr);
  ExpectRejected(R"({"jsonrpc":"2.0","id":1,"error":"oops"})", kInvalid, nullptr);
  ExpectRejected(R"({"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}})", kInvalid, nullptr);
  ExpectRejected(R"({"jsonrpc":"2.0","result":1})", kInvalid, nullptr);
  ExpectRejected(R"({"jsonrpc":"2.0","id":[1],"result":1})", kInvalid, nullptr);
}

TEST(Messages, Construction) {
  EXPECT_EQ(MakeRequest(1, "m", nullptr), json::parse(R"({"jsonrpc":"2.0","id":1,"method":"m"})"));
  EXPECT_EQ(MakeNotification("n", {{"a", 1}}), json::parse(R"({"jsonrpc":"2.0","method":"n","params":{"a":1}})"));
  EXPECT_EQ(MakeResponse("i", nullptr), json::parse(R"({"jsonrpc":"2.0","id":"i","result":null})"));
  EXPECT_EQ(MakeErrorResponse(nullptr, ResponseError(ErrorCode::kParseError, "x")),
            json::parse(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}})"));
  EXPECT_EQ(IdKey(7), "7");
  EXPECT_EQ(IdKey("7"), "\"7\"");
}

TEST(Messages, SerializeReplacesInvalidUtf8) {
  json m = MakeNotification("n", {{"text", std::string("a\xff")}});
  std::string text = Serialize(m);
  EXPECT_NE(text.find("\xEF\xBF\xBD"), std::string::npos);
}

TEST(ParamView, RequiredAndOptionalFields) {
  json params = json::parse(R"({"textDocument":{"uri":"file:///a.py","version":3},
                                "position":{"line":1,"character":2},"flag":true,"ratio":0.5,
                                "names":["a","b"],"nothing":null})");
  ParamView p(params);
  EXPECT_EQ(p.Get<std::string>("textDocument.uri"), "file:///a.py");
  EXPECT_EQ(p.Get<int64_t>("textDocument.version"), 3);
  EXPECT_EQ(p.Get<uint32_t>("position.character"), 2u);
  EXPECT_EQ(p.Get<int>("position.line"), 1);
  EXPECT_TRUE(p.Get<bool>("flag"));
  EXPECT_DOUBLE_EQ(p.Get<double>("ratio"), 0.5);
  EXPECT_EQ(p.Get<std::vector<std::string>>("names"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p.Get<json>("position"), json({{"line", 1}, {"character", 2}}));
  EXPECT_FALSE(p.Find<std::string>("textDocument.languageId"));
  EXPECT_FALSE(p.Find<int>("nothing"));
  EXPECT_FALSE(p.Has("nothing"));
  EXPECT_TRUE(p.Has("flag"));
  EXPECT_EQ(p.Find<int64_t>("textDocument.version"), 3);
  EXPECT_EQ(p.Object("textDocument").Get<std::string>("uri"), "file:///a.py");
}

TEST(ParamView, MissingFieldNamesTheFullPath) {
  json params = json::parse(R"({"textDocument":{}})");
  try {
    ParamView(params).Get<std::string>("textDocument.uri");
    FAIL() << "no throw";
  } catch (const ParamError& e) {
    EXPECT_EQ(e.path(), "textDocument.uri");
    EXPECT_EQ(e.error().code, -32602);
    EXPECT_NE(std::string(e.what()).find("textDocument.uri"), std::string::npos);
  }
  // Missing parent: the requested path is named.
  try {
    ParamView(json::object()).Get<std::string>("textDocument.uri");
    FAIL() << "no throw";
  } catch (const ParamError& e) {
    EXPECT_EQ(e.path(), "textDocument.uri");
  }
  // Null params (a request without params) behave like an empty object.
  EXPECT_THROW(ParamView(json()).Get<int>("x"), ParamError);
}

TEST(ParamView, WrongTypeNamesTheField) {
  json params = json::parse(R"({"textDocument":{"uri":5},"position":7,"line":-1,"big":4294967296})");
  ParamView p(params);
  try {
    p.Get<std::string>("textDocument.uri");
    FAIL();
  } catch (const ParamError& e) {
    EXPECT_EQ(e.path(), "textDocument.uri");
    EXPECT_NE(std::string(e.what()).find("string"), std::string::npos);
  }
  try {
    p.Get<int>("position.line");  // An intermediate that is not an object.
    FAIL();
  } catch (const ParamError& e) {
    EXPECT_EQ(e.path(), "position");
  }
  EXPECT_THROW(p.Find<std::string>("textDocument.uri"), ParamError);  // Present but wrong.
  EXPECT_THROW(p.Get<uint32_t>("line"), ParamError);
  EXPECT_THROW(p.Get<int>("big"), ParamError);
  EXPECT_EQ(p.Get<int64_t>("big"), 4294967296);
}

TEST(ParamView, ArraysAndNestedViewsKeepThePath) {
  json params = json::parse(R"({"contentChanges":[{"text":"a"},{"range":{}},{"text":3}]})");
  ParamView p(params);
  EXPECT_EQ(p.Get<std::string>("contentChanges[0].text"), "a");
  std::vector<ParamView> changes = p.Array("contentChanges").Elements();
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].Get<std::string>("text"), "a");
  try {
    changes[1].Object("range").Get<int>("start.line");
    FAIL();
  } catch (const ParamError& e) {
    EXPECT_EQ(e.path(), "contentChanges[1].range.start.line");
  }
  try {
    changes[2].Get<std::string>("text");
    FAIL();
  } catch (const ParamError& e) {
    EXPECT_EQ(e.path(), "contentChanges[2].text");
  }
  EXPECT_FALSE(p.Find<std::string>("contentChanges[9].text"));
  EXPECT_THROW(p.Array("contentChanges[0]"), ParamError);
  EXPECT_TRUE(p.FindView("contentChanges[1].range"));
  EXPECT_FALSE(p.FindView("contentChanges[1].missing"));
}

TEST(PositionEncoding, FirstOfTheClientsListThatWeSupport) {
  json params = json::parse(R"({"capabilities":{"general":{"positionEncodings":["utf-32","utf-8","utf-16"]}}})");
  EXPECT_EQ(NegotiatePositionEncoding(params), PositionEncoding::kUtf32);
  params["capabilities"]["general"]["positionEncodings"] = {"utf-8", "utf-16"};
  EXPECT_EQ(NegotiatePositionEncoding(params), PositionEncoding::kUtf8);
  EXPECT_EQ(NegotiatePositionEncoding(params, {PositionEncoding::kUtf16}), PositionEncoding::kUtf16);
  params["capabilities"]["general"]["positionEncodings"] = {"latin-1", 7, "utf-8"};
  EXPECT_EQ(NegotiatePositionEncoding(params), PositionEncoding::kUtf8);
}

TEST(PositionEncoding, DefaultsToUtf16) {
  EXPECT_EQ(NegotiatePositionEncoding(json::object()), PositionEncoding::kUtf16);
  EXPECT_EQ(NegotiatePositionEncoding(json()), PositionEncoding::kUtf16);
  EXPECT_EQ(NegotiatePositionEncoding(json::parse(R"({"capabilities":{"general":{}}})")), PositionEncoding::kUtf16);
  EXPECT_EQ(NegotiatePositionEncoding(json::parse(R"({"capabilities":{"general":{"positionEncodings":"utf-8"}}})")),
            PositionEncoding::kUtf16);
  EXPECT_EQ(NegotiatePositionEncoding(json::parse(R"({"capabilities":{"general":{"positionEncodings":[]}}})")),
            PositionEncoding::kUtf16);
  EXPECT_EQ(ToString(PositionEncoding::kUtf8), "utf-8");
  EXPECT_EQ(ParsePositionEncoding("utf-32"), PositionEncoding::kUtf32);
}

TEST(Logger, LevelsAndPrefixes) {
  EXPECT_EQ(ParseLogLevel("debug"), LogLevel::kDebug);
  EXPECT_EQ(ParseLogLevel("warning"), LogLevel::kWarn);
  EXPECT_FALSE(ParseLogLevel("loud"));
  std::vector<std::string> lines;
  Logger log(LogLevel::kWarn, [&lines](LogLevel level, std::string_view message) {
    lines.push_back(std::string(ToString(level)) + " " + std::string(message));
  });
  log.Debug("d");
  log.Info("i");
  log.Warn("w");
  log.WithPrefix("s1: ").Error("e");
  EXPECT_EQ(lines, (std::vector<std::string>{"warn w", "error s1: e"}));
  EXPECT_FALSE(Logger().Enabled(LogLevel::kError));
}

// AppendJsonString spells strings as Serialize does: the text parses back to the same string.
TEST(AppendJsonString, ParsesBackLikeSerialize) {
  const std::vector<std::string> cases = {
      "", "plain", "quote \" and backslash \\", "tab\tnewline\nreturn\r", std::string("nul\0x", 5),
      "\x01\x1f control", "\x7f delete", "é ü 中文 🙂", "`lv` is never used",
      "/work/a b/file.py"};
  for (const std::string& text : cases) {
    std::string out;
    AppendJsonString(&out, text);
    json parsed = json::parse(out);
    EXPECT_EQ(parsed.get<std::string>(), text) << out;
    EXPECT_EQ(out, Serialize(json(text))) << "spelled differently from Serialize";
  }
}

TEST(AppendJsonString, InvalidUtf8BecomesReplacementCharacters) {
  for (const std::string& text : {std::string("a\xff b"), std::string("\xc3"), std::string("\xed\xa0\x80"),
                                  std::string("\xf4\x90\x80\x80"), std::string("\xc0\xaf"),
                                  std::string("ok \xe4\xb8")}) {
    std::string out;
    AppendJsonString(&out, text);
    json parsed = json::parse(out);  // valid JSON whatever the input
    EXPECT_NE(parsed.get<std::string>().find("\xEF\xBF\xBD"), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace tvmls::protocol

// LSP framing: split reads, header variants, limits.
#include "framing.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tvmls::protocol {
namespace {

TEST(Framing, MessagesSplitAcrossReads) {
  FrameReader reader;
  std::string wire = EncodeFrame("{\"a\":1}") + EncodeFrame("{\"b\":2}");
  for (char c : wire) reader.Feed(std::string_view(&c, 1));
  Frame f1 = reader.Next();
  ASSERT_EQ(f1.kind, Frame::Kind::kMessage);
  EXPECT_EQ(f1.body, "{\"a\":1}");
  Frame f2 = reader.Next();
  ASSERT_EQ(f2.kind, Frame::Kind::kMessage);
  EXPECT_EQ(f2.body, "{\"b\":2}");
  EXPECT_EQ(reader.Next().kind, Frame::Kind::kNeedMore);
}

TEST(Framing, CaseInsensitiveHeadersAndContentType) {
  FrameReader reader;
  reader.Feed("content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}");
  Frame f = reader.Next();
  ASSERT_EQ(f.kind, Frame::Kind::kMessage);
  EXPECT_EQ(f.body, "{}");
}

TEST(Framing, MissingLengthIsAnErrorAndReadingGoesOn) {
  FrameReader reader;
  reader.Feed("Content-Type: x\r\n\r\n" + EncodeFrame("{}"));
  Frame bad = reader.Next();
  EXPECT_EQ(bad.kind, Frame::Kind::kError);
  EXPECT_NE(bad.error.find("Content-Length"), std::string::npos);
  Frame good = reader.Next();
  ASSERT_EQ(good.kind, Frame::Kind::kMessage);
  EXPECT_EQ(good.body, "{}");
}

TEST(Framing, HugeLengthRefusedWithoutAllocating) {
  FrameReader reader;
  reader.Feed("Content-Length: 2147483648\r\n\r\n{");
  Frame f = reader.Next();
  EXPECT_EQ(f.kind, Frame::Kind::kError);
  EXPECT_FALSE(f.fatal);
  EXPECT_NE(f.error.find("exceeds"), std::string::npos);
  EXPECT_EQ(reader.Buffered(), 0u);
}

TEST(Framing, OverLimitBodyIsSkippedAndReadingStaysInSync) {
  FrameReader reader(FramingLimits{64, 8});
  std::string big = "{\"text\":\"0123456789\"}";
  // Part of the oversized body arrives with the header, the rest in later reads, then a good frame.
  std::string wire = EncodeFrame(big) + EncodeFrame("{}");
  size_t header_end = wire.find("\r\n\r\n") + 4;
  reader.Feed(wire.substr(0, header_end + 5));
  Frame bad = reader.Next();
  ASSERT_EQ(bad.kind, Frame::Kind::kError);
  EXPECT_FALSE(bad.fatal);
  EXPECT_NE(bad.error.find("exceeds"), std::string::npos);
  EXPECT_EQ(reader.Next().kind, Frame::Kind::kNeedMore);
  for (size_t i = header_end + 5; i < wire.size(); ++i) reader.Feed(wire.substr(i, 1));
  Frame good = reader.Next();
  ASSERT_EQ(good.kind, Frame::Kind::kMessage);
  EXPECT_EQ(good.body, "{}");
  EXPECT_EQ(reader.Next().kind, Frame::Kind::kNeedMore);
}

TEST(Framing, OverlongHeaderRefused) {
  FrameReader reader(FramingLimits{64, 1024});
  reader.Feed(std::string(100, 'X'));
  Frame f = reader.Next();
  EXPECT_EQ(f.kind, Frame::Kind::kError);
  EXPECT_TRUE(f.fatal);  // No header end in sight: nowhere to resume.
}

TEST(Framing, CompleteButOverlongHeaderIsFatalToo) {
  FrameReader reader(FramingLimits{64, 1024});
  reader.Feed("X-Padding: " + std::string(100, 'x') + "\r\nContent-Length: 2\r\n\r\n{}");
  Frame f = reader.Next();
  EXPECT_EQ(f.kind, Frame::Kind::kError);
  EXPECT_TRUE(f.fatal);
}

// Every frame the reader yields for `wire`, fed at once or byte by byte: "M:<body>" or "E".
std::vector<std::string> Frames(const std::string& wire, bool byte_by_byte,
                                FramingLimits limits = {}) {
  FrameReader reader(limits);
  std::vector<std::string> out;
  auto take = [&] {
    for (Frame f = reader.Next(); f.kind != Frame::Kind::kNeedMore; f = reader.Next()) {
      out.push_back(f.kind == Frame::Kind::kMessage ? "M:" + f.body : (f.fatal ? "F" : "E"));
    }
  };
  if (byte_by_byte) {
    for (char c : wire) {
      reader.Feed(std::string_view(&c, 1));
      take();
    }
  } else {
    reader.Feed(wire);
    take();
  }
  return out;
}

TEST(Framing, BadLengthWithABodyResumesAtTheNextHeader) {
  // The body of a header without a usable length cannot be skipped by length: reading resumes at
  // the next "Content-Length:", which directly follows that body.
  std::string wire = "Content-Length: abc\r\n\r\n{\"id\":1}" + EncodeFrame("{\"id\":2}") +
                     EncodeFrame("{\"id\":3}");
  std::vector<std::string> expected = {"E", "M:{\"id\":2}", "M:{\"id\":3}"};
  EXPECT_EQ(Frames(wire, false), expected);
  EXPECT_EQ(Frames(wire, true), expected);
}

TEST(Framing, ResumesAfterGarbageAndHeadersWithoutLength) {
  std::string wire = "hello" + EncodeFrame("{}") + "Content-Type: x\r\n\r\n[1]" +
                     "content-length:\t2\r\n\r\n{}" + "X: y\r\nContent-Length: 12abc\r\n\r\n" +
                     EncodeFrame("[]");
  // "hello" glued to a header makes that header bad, but the frame is found again inside it.
  std::vector<std::string> expected = {"E", "M:{}", "E", "M:{}", "E", "M:[]"};
  EXPECT_EQ(Frames(wire, false), expected);
  EXPECT_EQ(Frames(wire, true), expected);
}

TEST(Framing, EveryBadHeaderIsReportedAlsoWhileResynchronising) {
  std::string wire = std::string("Content-Type: x\r\n\r\n") +
                     "Content-Length: abc\r\n\r\n{\"id\":1}" + "Content-Length: -5\r\n\r\n{\"id\":2}" +
                     EncodeFrame("{}");
  std::vector<std::string> expected = {"E", "E", "E", "M:{}"};
  EXPECT_EQ(Frames(wire, false), expected);
  EXPECT_EQ(Frames(wire, true), expected);
}

TEST(Framing, FalseStartsInsideASkippedBody) {
  // After a bad header, "Content-Length: 5" inside the skipped body looks like a header: its bad
  // "header" is reported too, and the frame after it is still found.
  std::string wire = "Content-Length: x\r\n\r\n{\"t\":\"Content-Length: 5 tail\"}" +
                     EncodeFrame("{}");
  std::vector<std::string> expected = {"E", "E", "M:{}"};
  EXPECT_EQ(Frames(wire, false), expected);
  EXPECT_EQ(Frames(wire, true), expected);
  // One whose "header" would be over the limit is passed over silently, not fatal.
  FramingLimits limits{64, 1024};
  wire = "Content-Length: x\r\n\r\n{\"t\":\"content-length:9" + std::string(100, 'x') + "\"}" +
         EncodeFrame("{}");
  expected = {"E", "M:{}"};
  EXPECT_EQ(Frames(wire, false, limits), expected);
  EXPECT_EQ(Frames(wire, true, limits), expected);
}

TEST(Framing, ResynchronisingKeepsLittle) {
  FrameReader reader;
  reader.Feed("Content-Length: x\r\n\r\n");
  EXPECT_EQ(reader.Next().kind, Frame::Kind::kError);
  reader.Feed(std::string(100000, 'y') + "Content-Len");
  EXPECT_EQ(reader.Next().kind, Frame::Kind::kNeedMore);
  EXPECT_LE(reader.Buffered(), 16u);  // only the partial "Content-Len"
  reader.Feed("gth: 2\r\n\r\n{}");
  Frame f = reader.Next();
  ASSERT_EQ(f.kind, Frame::Kind::kMessage);
  EXPECT_EQ(f.body, "{}");
}

TEST(Framing, BadLengthValue) {
  FrameReader reader;
  reader.Feed("Content-Length: 12abc\r\n\r\n");
  EXPECT_EQ(reader.Next().kind, Frame::Kind::kError);
}

}  // namespace
}  // namespace tvmls::protocol

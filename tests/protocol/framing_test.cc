// LSP framing: split reads, header variants, limits.
#include "framing.h"

#include <gtest/gtest.h>

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
  EXPECT_NE(f.error.find("exceeds"), std::string::npos);
  EXPECT_EQ(reader.Buffered(), 0u);
}

TEST(Framing, OverlongHeaderRefused) {
  FrameReader reader(FramingLimits{64, 1024});
  reader.Feed(std::string(100, 'X'));
  EXPECT_EQ(reader.Next().kind, Frame::Kind::kError);
}

TEST(Framing, BadLengthValue) {
  FrameReader reader;
  reader.Feed("Content-Length: 12abc\r\n\r\n");
  EXPECT_EQ(reader.Next().kind, Frame::Kind::kError);
}

}  // namespace
}  // namespace tvmls::protocol
